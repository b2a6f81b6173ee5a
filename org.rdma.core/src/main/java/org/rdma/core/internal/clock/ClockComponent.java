package org.rdma.core.internal.clock;

import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.rdma.verbs.time.IbClock;
import org.rdma.verbs.time.SystemClock;

/**
 * Publishes the platform's {@link IbClock}: real time. Tests that need virtual time construct a
 * {@link org.rdma.verbs.time.VirtualClock} and hand it to the code under test, or register one
 * with a higher service ranking.
 */
@Component(service = IbClock.class, configurationPid = ClockComponent.PID)
@Designate(ocd = ClockComponent.Config.class)
public final class ClockComponent implements IbClock {
    static final String PID = "org.rdma.core.clock";

    /** Configuration of the clock service. */
    @ObjectClassDefinition(name = "RDMA clock", description = "The timer service every protocol timer uses.")
    public @interface Config {
        /** Name of the timer thread. */
        @AttributeDefinition(name = "Timer thread name")
        String thread_name() default "rdma-timer";
    }

    private final SystemClock clock;

    /** Starts the timer thread. */
    @Activate
    public ClockComponent(Config config) {
        this.clock = new SystemClock(config.thread_name());
    }

    @Deactivate
    void deactivate() {
        clock.close();
    }

    @Override
    public long nanoTime() {
        return clock.nanoTime();
    }

    @Override
    public Timer schedule(Runnable task, long delay, TimeUnit unit) {
        return clock.schedule(task, delay, unit);
    }
}
