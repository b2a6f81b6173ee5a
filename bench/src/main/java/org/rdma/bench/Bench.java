package org.rdma.bench;

import java.util.concurrent.ForkJoinPool;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.core.internal.verbs.DeviceServices;
import org.rdma.rvt.RvtDevice;

/** What every benchmark's set-up shares: devices registered with the core, JMH run defaults. */
final class Bench {
    private Bench() {
    }

    /**
     * Wraps a driver's provider in a registered {@link CoreDevice} outside any framework (completions
     * on the common pool, asynchronous events dropped), as {@code ib_register_device()} would.
     */
    static CoreDevice register(RvtDevice provider, String name, int index) {
        return CoreDevice.register(provider, name, index, DeviceServices.standalone(ForkJoinPool.commonPool()));
    }

    /**
     * The run defaults of every benchmark main (3 warm-up iterations of 2 s, 5 measured ones of
     * {@code measureSeconds}), for whatever the command line leaves open; the command line's own
     * options are the parent, so they win. The number of forks is each benchmark's {@code @Fork}:
     * one, except the whole datapath's, whose compiled shape differs from one JVM to the next.
     */
    static OptionsBuilder defaults(CommandLineOptions cli, int measureSeconds) {
        OptionsBuilder b = new OptionsBuilder();
        if (!cli.getWarmupIterations().hasValue()) {
            b.warmupIterations(3);
        }
        if (!cli.getMeasurementIterations().hasValue()) {
            b.measurementIterations(5);
        }
        if (!cli.getWarmupTime().hasValue()) {
            b.warmupTime(TimeValue.seconds(2));
        }
        if (!cli.getMeasurementTime().hasValue()) {
            b.measurementTime(TimeValue.seconds(measureSeconds));
        }
        return b;
    }
}
