package org.rdma.hca.rxe.internal;

import java.util.Arrays;
import org.rdma.cm.internal.tools.RpingCommand;
import org.rdma.shell.internal.RcPingpongCommand;
import org.rdma.shell.internal.UdPingpongCommand;
import org.rdma.shell.internal.WriteBwCommand;
import org.rdma.verbs.RdmaException;

/**
 * The second process of the two-process tests: {@code RxePeerMain UDP_PORT REMOTE_UDP_PORT TOOL
 * ARGS...} builds {@value CoreRxe#NAME} over an rxe device on {@code lo} ({@link CoreRxe}) and
 * runs one of the shell's tools ({@code ibv_rc_pingpong}, {@code ibv_ud_pingpong},
 * {@code ib_write_bw}) with {@code ARGS}, printing its output; for {@code rping} the connection
 * managers ({@link CmRxe}) run on the device too. Exit status 0 on success; 1 with
 * {@code ERROR: <errno>: <message>} on stderr when the tool fails; 2 for bad arguments; 3 if it
 * outlives {@link #MAX_LIFE_MS} (a guard should the test that started it vanish).
 */
public final class RxePeerMain {
    static final long MAX_LIFE_MS = 60_000;

    private RxePeerMain() {
    }

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: RxePeerMain UDP_PORT REMOTE_UDP_PORT TOOL [ARGS...]");
            System.exit(2);
        }
        new java.util.Timer("peer-guard", true).schedule(new java.util.TimerTask() {
            @Override
            public void run() {
                System.err.println("ERROR: still running after " + MAX_LIFE_MS + " ms");
                Runtime.getRuntime().halt(3);
            }
        }, MAX_LIFE_MS);
        int status = 0;
        try (CoreRxe core = new CoreRxe(Integer.parseInt(args[0]), Integer.parseInt(args[1]), 0, 1)) {
            String[] tool = Arrays.copyOfRange(args, 3, args.length);
            switch (args[2]) {
                case "ibv_rc_pingpong":
                    new RcPingpongCommand(core).run(System.out, tool);
                    break;
                case "ibv_ud_pingpong":
                    new UdPingpongCommand(core).run(System.out, tool);
                    break;
                case "ib_write_bw":
                    new WriteBwCommand(core).run(System.out, tool);
                    break;
                case "rping":
                    try (CmRxe cms = new CmRxe(core)) {
                        new RpingCommand(cms.cm).rping(tool);
                    }
                    break;
                default:
                    System.err.println("ERROR: unknown tool " + args[2]);
                    status = 2;
            }
        } catch (RdmaException e) {
            System.out.flush();
            System.err.println("ERROR: " + e.getMessage());
            status = 1;
        } catch (InterruptedException e) {
            System.err.println("ERROR: interrupted");
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }
}
