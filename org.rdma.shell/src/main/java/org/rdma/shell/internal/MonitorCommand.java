package org.rdma.shell.internal;

import java.io.PrintStream;
import java.util.Hashtable;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.event.Event;
import org.osgi.service.event.EventConstants;
import org.osgi.service.event.EventHandler;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.RdmaNotifyEvent;

/**
 * {@code rdma:monitor [-c COUNT] [-w SECONDS]}: iproute2's {@code rdma monitor}
 * ({@code rdma/monitor.c}), tailing the core's Event Admin events until interrupted, until
 * COUNT lines were printed, or for SECONDS.
 *
 * <p>Device notifications ({@link RdmaNotifyEvent}, the kernel's
 * {@code RDMA_NL_GROUP_NOTIFY}) print exactly as {@code rdma monitor} prints them:
 * <pre>
 * [REGISTER]	dev 2 mlx4_0
 * [NETDEV_ATTACH]	dev 2 mlx4_0 port 2 netdev eth2
 * [UNREGISTER]	dev 2 mlx4_0
 * </pre>
 * The same layout carries what the kernel keeps to itself: asynchronous events
 * ({@code ib_dispatch_event()}, topic {@code org/rdma/event/*}), e.g.
 * {@code [PORT_ACTIVE]	dev 2 mlx4_0 port 1}, and clients following devices
 * ({@code [CLIENT_ADD]	dev 2 mlx4_0 client mad}).
 */
@Component(service = MonitorCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=monitor"})
public class MonitorCommand {
    static final String USAGE = "rdma:monitor [-c COUNT] [-w SECONDS]";
    static final String[] TOPICS = {RdmaNotifyEvent.TOPIC_PREFIX + "*", IbEventType.TOPIC_PREFIX + "*",
        "org/rdma/client/*"};

    private final BundleContext bc;

    /** A command subscribing through {@code bc}. */
    @Activate
    public MonitorCommand(BundleContext bc) {
        this.bc = bc;
    }

    /** {@code rdma:monitor}, printed to the session's output. */
    @Descriptor("print RDMA device, client and asynchronous events as they happen (rdma monitor)")
    public void monitor(@Descriptor(USAGE) String... args) throws InterruptedException {
        monitor(System.out, args);
    }

    void monitor(PrintStream out, String... args) throws InterruptedException {
        Options o = new Options(USAGE).option('c', "count", true).option('w', "wait", true).parse(args);
        long count = o.number("count", Long.MAX_VALUE, 1, Long.MAX_VALUE);
        long seconds = o.number("wait", 0, 1, 365L * 24 * 3600);
        long deadline = seconds == 0 ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        // Events arrive on Event Admin's threads; the session's output belongs to this one.
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(EventConstants.EVENT_TOPIC, TOPICS);
        ServiceRegistration<EventHandler> reg = bc.registerService(EventHandler.class,
                event -> lines.add(line(event)), props);
        try {
            for (long printed = 0; printed < count; printed++) {
                long left = deadline - System.nanoTime();
                String line = lines.poll(Math.max(left, 0), TimeUnit.NANOSECONDS);
                if (line == null) {
                    return;
                }
                out.println(line);
                out.flush();
            }
        } finally {
            try {
                reg.unregister();
            } catch (IllegalStateException bundleStopped) {
                // the framework already took the handler away with this bundle
            }
        }
    }

    /** One event as {@code rdma monitor}'s {@code mon_show_cb()} prints a notification. */
    static String line(Event e) {
        String topic = e.getTopic();
        String type = topic.substring(topic.lastIndexOf('/') + 1);
        if (topic.startsWith("org/rdma/client/")) {
            type = "CLIENT_" + type;
        }
        StringBuilder b = new StringBuilder().append('[').append(type).append("]\t");
        Object index = e.getProperty(RdmaNotifyEvent.PROP_DEV_INDEX);
        if (index != null) {
            b.append("dev ").append(index).append(' ');
        }
        b.append(e.getProperty(IbRuntime.EVENT_DEVICE));
        append(b, "port", e.getProperty(IbRuntime.EVENT_PORT));
        append(b, "netdev", e.getProperty(RdmaNotifyEvent.PROP_NETDEV));
        append(b, "client", e.getProperty(IbRuntime.EVENT_CLIENT));
        append(b, "qpn", e.getProperty("qpn"));
        return b.toString();
    }

    private static void append(StringBuilder b, String key, Object value) {
        if (value != null) {
            b.append(' ').append(key).append(' ').append(value);
        }
    }
}
