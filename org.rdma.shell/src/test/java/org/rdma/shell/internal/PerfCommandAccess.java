package org.rdma.shell.internal;

import java.io.PrintStream;
import org.rdma.verbs.IbCore;

/** Lets tests in sub-packages run the package-private perf command entry points. */
public final class PerfCommandAccess {
    /** {@link RcPingpongCommand#USAGE}. */
    public static final String PINGPONG_USAGE = RcPingpongCommand.USAGE;
    /** {@link WriteBwCommand#USAGE}. */
    public static final String WRITE_BW_USAGE = WriteBwCommand.USAGE;
    /** {@link UdPingpongCommand#USAGE}. */
    public static final String UD_PINGPONG_USAGE = UdPingpongCommand.USAGE;

    private PerfCommandAccess() {
    }

    /** {@code ibv_rc_pingpong args}. */
    public static void pingpong(IbCore core, PrintStream out, String... args) {
        new RcPingpongCommand(core).run(out, args);
    }

    /** {@code ib_write_bw args}. */
    public static void writeBw(IbCore core, PrintStream out, String... args) {
        new WriteBwCommand(core).run(out, args);
    }

    /** {@code ibv_ud_pingpong args}. */
    public static void udPingpong(IbCore core, PrintStream out, String... args) {
        new UdPingpongCommand(core).run(out, args);
    }
}
