package org.rdma.iscsi.internal.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.rdma.iscsi.internal.interimlogin.InterimLogin;
import org.rdma.iscsi.internal.target.IscsiTarget;
import org.rdma.iscsi.internal.target.TargetSettings;
import org.rdma.target.internal.backstore.RamdiskBackstore;
import org.rdma.target.internal.core.TargetCoreImpl;
import org.rdma.target.internal.core.Tpg;
import org.rdma.target.internal.device.DeviceAttributes;
import org.rdma.target.internal.device.DeviceIdentity;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * A whole target for TCP tests: a target core with one ramdisk LUN per size given, the engine on
 * the system clock, and the TCP server with the interim login, its portal on an ephemeral port of
 * 127.0.0.1 (no fixed port, so no lock is needed).
 */
final class TcpTarget implements AutoCloseable {
    static final String IQN = "iqn.2003-01.org.rdma:tcp1";

    final ExecutorService executor = Executors.newFixedThreadPool(2);
    final TargetCoreImpl core = new TargetCoreImpl(executor);
    final Tpg tpg = core.addTpg(IscsiTarget.FABRIC, IQN, 1, 5);
    final IscsiTarget target;
    final IscsiTcpServer server;
    final InetSocketAddress portal;

    TcpTarget(String host, long... lunBytes) throws IOException {
        this(host, TargetSettings.DEFAULTS, lunBytes);
    }

    TcpTarget(String host, TargetSettings settings, long... lunBytes) throws IOException {
        for (int i = 0; i < lunBytes.length; i++) {
            String name = "rd" + i;
            tpg.addLun(i, new ScsiDevice(name, new RamdiskBackstore(lunBytes[i], 512), DeviceAttributes.DEFAULTS,
                    DeviceIdentity.of(DeviceIdentity.defaultSerial("rd_mcp", name), DeviceIdentity.DEFAULT_COMPANY_ID)));
        }
        tpg.setGenerateNodeAcls(true);
        tpg.setDemoModeWriteProtect(false);
        target = new IscsiTarget(core, System::nanoTime, settings);
        server = new IscsiTcpServer(target, (t, p) -> new InterimLogin(target, t, p), 2);
        portal = server.addPortal(IQN, 1, new InetSocketAddress(host, 0));
    }

    /** The libiscsi URL of LUN {@code lun}. */
    String url(int lun) {
        String h = portal.getAddress().getHostAddress();
        if (h.contains(":")) {
            h = "[" + h + "]";
        }
        return "iscsi://" + h + ":" + portal.getPort() + "/" + IQN + "/" + lun;
    }

    @Override
    public void close() {
        server.close();
        executor.shutdownNow();
    }

    /** Runs a target until killed, for trying tools by hand: prints the URL of LUN 0. */
    public static void main(String[] args) throws Exception {
        try (TcpTarget t = new TcpTarget("127.0.0.1", 64L << 20, 16L << 20)) {
            System.out.println(t.url(0));
            Thread.currentThread().join();
        }
    }
}
