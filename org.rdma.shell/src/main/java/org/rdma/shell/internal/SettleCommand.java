package org.rdma.shell.internal;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.RdmaException;

/**
 * {@code rdma:settle [-n COUNT] [-t SECONDS]}: waits until at least COUNT RDMA devices are
 * registered, as {@code udevadm settle} waits for device events. Devices that configurations
 * bring up appear asynchronously; scripts settle before they look. Fails with
 * {@code ETIMEDOUT} when they do not come in time.
 */
@Component(service = SettleCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=settle"})
public class SettleCommand {
    static final String USAGE = "rdma:settle [-n COUNT] [-t SECONDS]";

    private int devices;

    /** Counts each registered {@code IbDevice} service. */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    synchronized void addDevice(IbDevice device) {
        devices++;
        notifyAll();
    }

    synchronized void removeDevice(IbDevice device) {
        devices--;
    }

    /** {@code rdma:settle}, reporting to the session's output. */
    @Descriptor("wait until RDMA devices are registered (udevadm settle)")
    public void settle(@Descriptor(USAGE) String... args) {
        settle(System.out, args);
    }

    void settle(PrintStream out, String... args) {
        Options o = new Options(USAGE).option('n', "count", true).option('t', "timeout", true).parse(args);
        long want = o.number("count", 1, 0, 1 << 20);
        long seconds = o.number("timeout", 10, 0, 3600);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        int have = await(want, deadline);
        if (have < want) {
            throw new RdmaException(Errno.ETIMEDOUT, have + " of " + want + " RDMA devices after " + seconds + " s");
        }
        out.println(have + " RDMA device" + (have == 1 ? "" : "s") + " registered");
    }

    private synchronized int await(long want, long deadline) {
        boolean interrupted = false;
        try {
            long left;
            while (devices < want && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
            return devices;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
