package org.rdma.fabric.ibsim;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortInfo;

/**
 * A stand-in for {@code ibsim -r} on 127.0.0.1, for tests that must not depend on the real one:
 * it answers control messages the way ibsim's {@code sim_ctl()} does (from settable NodeInfo and
 * PortInfo), owns one data socket per client slot at control port + 1 + slot, and lets the test
 * read the frames clients send and send frames to them. Everything it receives is recorded.
 */
public final class FakeIbsim implements AutoCloseable {
    private DatagramSocket ctl;
    private final DatagramSocket[] slots = new DatagramSocket[IbsimClient.IBSIM_MAX_CLIENTS];
    private Thread server;
    /** Every control message received, in order. */
    public final BlockingQueue<SimCtl> received = new LinkedBlockingQueue<>();
    /** Control message types answered with SIM_CTL_ERROR. */
    public final Set<Integer> refuse = ConcurrentHashMap.newKeySet();
    /** Control message types left unanswered. */
    public final Set<Integer> ignore = ConcurrentHashMap.newKeySet();
    /** The node id reported to CONNECT. */
    public volatile String nodeId = "fake";
    /** The next client index CONNECT assigns. */
    public volatile int nextClient = 2;
    /** The node's NodeInfo (SIM_CTL_GET_NODEINFO). */
    public volatile NodeInfo nodeInfo = new NodeInfo();
    /** The port's PortInfo (SIM_CTL_GET_PORTINFO). */
    public volatile PortInfo portInfo = new PortInfo();

    /** Binds 11 consecutive free UDP ports on loopback and starts answering. */
    public FakeIbsim() throws IOException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        IOException last = null;
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(20000, 60000);
            DatagramSocket c = null;
            try {
                c = new DatagramSocket(new InetSocketAddress(lo, base));
                for (int i = 0; i < slots.length; i++) {
                    slots[i] = new DatagramSocket(new InetSocketAddress(lo, base + 1 + i));
                    slots[i].setSoTimeout(10_000);
                }
                ctl = c;
                server = new Thread(this::serve, "fake-ibsim");
                server.setDaemon(true);
                server.start();
                return;
            } catch (SocketException e) {
                last = e;
                if (c != null) {
                    c.close();
                }
                for (int i = 0; i < slots.length; i++) {
                    if (slots[i] != null) {
                        slots[i].close();
                        slots[i] = null;
                    }
                }
            }
        }
        throw last;
    }

    /** @return the control address */
    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), ctl.getLocalPort());
    }

    private void serve() {
        byte[] buf = new byte[512];
        while (!ctl.isClosed()) {
            DatagramPacket in = new DatagramPacket(buf, buf.length);
            try {
                ctl.receive(in);
            } catch (IOException closed) {
                return;
            }
            if (in.getLength() != SimCtl.BYTES) {
                continue;
            }
            SimCtl c = SimCtl.unpack(buf, 0, in.getLength());
            received.add(c);
            if (ignore.contains(c.type)) {
                continue;
            }
            SimCtl reply = answer(c, (InetSocketAddress) in.getSocketAddress());
            byte[] out = reply.pack();
            try {
                ctl.send(new DatagramPacket(out, out.length, in.getSocketAddress()));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private SimCtl answer(SimCtl c, InetSocketAddress from) {
        SimCtl r = SimCtl.unpack(c.pack(), 0, SimCtl.BYTES);
        if (refuse.contains(c.type)) {
            r.type = SimCtl.SIM_CTL_ERROR;
            return r;
        }
        switch (c.type) {
            case SimCtl.SIM_CTL_CONNECT: {
                SimClientInfo info = SimClientInfo.unpack(c.data);
                int id = nextClient;
                try {
                    slots[id].connect(new InetSocketAddress(from.getAddress(), info.id()));
                } catch (SocketException e) {
                    throw new IllegalStateException(e);
                }
                byte[] d = new SimClientInfo(id, info.qp(), info.issm(), nodeId).pack();
                System.arraycopy(d, 0, r.data, 0, d.length);
                break;
            }
            case SimCtl.SIM_CTL_GET_NODEINFO:
                java.util.Arrays.fill(r.data, (byte) 0);
                nodeInfo.pack(r.data, 0);
                break;
            case SimCtl.SIM_CTL_GET_PORTINFO:
                portInfo.pack(r.data, 0);
                break;
            default:
                break;
        }
        return r;
    }

    /** The next frame client {@code slot} sent, or {@code null} after {@code ms}. */
    public SimRequest takeFrame(int slot, int ms) throws IOException {
        byte[] buf = new byte[512];
        DatagramPacket in = new DatagramPacket(buf, buf.length);
        slots[slot].setSoTimeout(ms);
        try {
            slots[slot].receive(in);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return SimRequest.unpack(buf, 0, in.getLength());
    }

    /** Sends raw bytes to client {@code slot}. */
    public void sendRaw(int slot, byte[] bytes) throws IOException {
        slots[slot].send(new DatagramPacket(bytes, bytes.length));
    }

    /** Sends a frame to client {@code slot}. */
    public void sendFrame(int slot, SimRequest r) throws IOException {
        sendRaw(slot, r.pack());
    }

    /** The next control message of {@code type} received within {@code ms}, skipping others. */
    public SimCtl awaitCtl(int type, int ms) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (true) {
            long left = end - System.nanoTime();
            SimCtl c = received.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
            if (c == null || c.type == type) {
                return c;
            }
        }
    }

    @Override
    public void close() {
        ctl.close();
        for (DatagramSocket s : slots) {
            s.close();
        }
        try {
            server.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
