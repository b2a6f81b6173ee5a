package org.rdma.shell.internal;

import java.io.PrintStream;
import org.rdma.shell.internal.fabric.FabricTools;

/** Lets tests in sub-packages run the package-private command entry points. */
public final class CommandAccess {
    /** {@link FaultCommand#USAGE}. */
    public static final String FAULT_USAGE = FaultCommand.USAGE;
    /** {@link CaptureCommand#USAGE}. */
    public static final String CAPTURE_USAGE = CaptureCommand.USAGE;

    private CommandAccess() {
    }

    /** {@code rdma:fault args} printing to {@code out}. */
    public static void fault(FabricTools tools, PrintStream out, String... args) {
        new FaultCommand(tools).run(out, args);
    }

    /** {@code rdma:capture args} printing to {@code out}. */
    public static void capture(FabricTools tools, PrintStream out, String... args) {
        new CaptureCommand(tools).run(out, args);
    }
}
