package org.rdma.sm.internal;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * {@code rdma:sminfo [-w SECONDS]}: the master SM of each configured port, as infiniband-diags'
 * {@code sminfo} prints it; {@code -w} first waits until the subnet is up (a sweep done and none
 * pending), so scripts can settle on the SM as {@code rdma:settle} settles on devices. Fails
 * with {@code ETIMEDOUT} when it is not up in time. The logic is the SM's; this only prints.
 */
@Component(service = SmInfoCommand.class, property = {"osgi.command.scope=rdma", "osgi.command.function=sminfo"})
public class SmInfoCommand {
    static final String USAGE = "rdma:sminfo [-w SECONDS]";
    private final List<SmComponent> sms = new CopyOnWriteArrayList<>();

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addSm(SmComponent sm) {
        sms.add(sm);
    }

    void removeSm(SmComponent sm) {
        sms.remove(sm);
    }

    /** {@code rdma:sminfo}, reporting to the session's output. */
    public void sminfo(String... args) throws InterruptedException {
        sminfo(System.out, args);
    }

    void sminfo(PrintStream out, String... args) throws InterruptedException {
        long waitSeconds = -1;
        for (int i = 0; i < args.length; i++) {
            if (("-w".equals(args[i]) || "--wait".equals(args[i])) && i + 1 < args.length) {
                try {
                    waitSeconds = Long.parseLong(args[++i]);
                } catch (NumberFormatException e) {
                    throw new RdmaException(Errno.EINVAL, "bad wait '" + args[i] + "'; usage: " + USAGE);
                }
            } else {
                throw new RdmaException(Errno.EINVAL, "unknown argument '" + args[i] + "'; usage: " + USAGE);
            }
        }
        if (sms.isEmpty()) {
            throw new RdmaException(Errno.ENODEV, "no subnet manager configured (factory PID " + SmComponent.PID + ")");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.max(0, waitSeconds));
        for (SmComponent c : sms) {
            SubnetManager sm = c.subnetManager();
            while (sm == null && waitSeconds > 0 && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(20); // the device is not registered yet
                sm = c.subnetManager();
            }
            if (sm == null) {
                if (waitSeconds >= 0) {
                    throw new RdmaException(Errno.ETIMEDOUT, "SM on " + c.describe() + ": device not there");
                }
                out.println("sminfo: " + c.describe() + ": waiting for the device");
                continue;
            }
            if (waitSeconds >= 0 && !sm.awaitUp(deadline)) {
                throw new RdmaException(Errno.ETIMEDOUT, "SM on " + c.describe() + ": subnet not up after "
                        + waitSeconds + " s");
            }
            out.printf("sminfo: %s sm lid %d sm guid 0x%016x, activity count %d priority %d state 3 SMINFO_MASTER"
                    + " (%d sweeps)%n", c.describe(), SubnetManager.SM_LID, sm.device.queryGid(sm.portNum, 0).interfaceId(),
                    sm.smpsSent(), c.priority(), sm.sweeps());
        }
    }
}
