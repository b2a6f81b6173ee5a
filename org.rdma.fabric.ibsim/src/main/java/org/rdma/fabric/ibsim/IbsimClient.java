package org.rdma.fabric.ibsim;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortInfo;

/**
 * A client of an ibsim simulator running in remote mode ({@code ibsim -r [-l port]}), in pure
 * Java: what umad2sim's {@code sim_client.c} does for a libibumad program.
 *
 * <h2>The protocol</h2>
 * ibsim listens for {@link SimCtl} control messages on UDP port {@code P} (default
 * {@value #IBSIM_DEFAULT_SERVER_PORT}) and owns one data socket per client slot {@code i} on port
 * {@code P + 1 + i} ({@value #IBSIM_MAX_CLIENTS} slots). {@link #connect} sends
 * {@code SIM_CTL_CONNECT} with the UDP port of its own data socket as the id; ibsim attaches the
 * client to the node named (its first port, for a CA), connects slot {@code i}'s socket to that
 * port at the control message's source address and answers with {@code i}. From then on the
 * client sends {@link SimRequest} frames to {@code P + 1 + i} and receives there the MADs
 * addressed to its port that ibsim's own node model does not answer: responses whose
 * TransactionID carries {@code i} in bits 63..48 (ibsim writes them into every request a client
 * sends), and, for a client connected with {@code issm}, requests to QP0 and QP1.
 *
 * <p>Control requests are answered in order on the control socket; they are serialised here and
 * time out after the configured time ({@code ETIMEDOUT}); a simulator that is not there is
 * {@code ECONNREFUSED}. A refused request ({@code SIM_CTL_ERROR}) throws {@code ENODEV} for
 * CONNECT (unknown node, no free slot, or an SM already attached there) and {@code EIO}
 * otherwise. {@link #send} and {@link #receive} may be used from other threads meanwhile.
 */
public final class IbsimClient implements AutoCloseable {
    /** {@code IBSIM_DEFAULT_SERVER_PORT}: the control port of {@code ibsim -r} without {@code -l}. */
    public static final int IBSIM_DEFAULT_SERVER_PORT = 7070;
    /** {@code IBSIM_MAX_CLIENTS}: the number of client slots (data ports after the control port). */
    public static final int IBSIM_MAX_CLIENTS = 10;

    private static final Logger LOG = Logger.getLogger(IbsimClient.class.getName());
    private static final int RECEIVE_BUFFER = 512;

    /** {@code struct sim_port}: the reply of {@code SIM_CTL_GET_PORT}. */
    public record SimPort(int lid, int state) {
    }

    /** {@code struct sim_vendor}: the reply of {@code SIM_CTL_GET_VENDOR}. */
    public record SimVendor(int vendorId, int vendorPartId, int hwVer, long fwVer) {
    }

    private final InetSocketAddress server;
    private final DatagramSocket ctl;
    private final DatagramSocket data;
    private final int clientId;
    private final String nodeId;
    private final Object ctlLock = new Object();
    private final byte[] ctlBuf = new byte[RECEIVE_BUFFER];
    private volatile boolean closed;

    private IbsimClient(InetSocketAddress server, DatagramSocket ctl, DatagramSocket data, int clientId,
                        String nodeId) {
        this.server = server;
        this.ctl = ctl;
        this.data = data;
        this.clientId = clientId;
        this.nodeId = nodeId;
    }

    /**
     * Connects to the simulator and attaches to a node: umad2sim's {@code sim_init()} and
     * {@code sim_connect()} ({@code SIM_CTL_CONNECT}). The sockets are bound to the loopback
     * address when the simulator is on it, so nothing leaves the host.
     *
     * @param server    ibsim's control address (IPv4: ibsim's remote mode is AF_INET only)
     * @param nodeId    the node id or NodeDescription of the node to attach to ({@code SIM_HOST});
     *                  empty for ibsim's default node
     * @param issm      whether this client receives QP0/QP1 requests for its port (the
     *                  {@code issm} of {@code struct sim_client_info}; the IsSM capability bit is
     *                  {@link #setIsSm} and is left alone here)
     * @param timeoutMs how long a control request waits for its answer
     * @return the connected client
     * @throws RdmaException {@code EINVAL} for an IPv6 or unresolved address or a bad node id,
     *                       {@code ECONNREFUSED} if nobody listens there, {@code ENODEV} if ibsim
     *                       refuses to attach,
     *                       {@code ETIMEDOUT} without an answer, {@code EIO} for a socket error
     */
    public static IbsimClient connect(InetSocketAddress server, String nodeId, boolean issm, int timeoutMs) {
        if (server.isUnresolved() || !(server.getAddress() instanceof Inet4Address)) {
            throw new RdmaException(Errno.EINVAL, "ibsim's remote mode speaks IPv4 only; cannot use " + server);
        }
        if (timeoutMs <= 0) {
            throw new RdmaException(Errno.EINVAL, "control timeout must be positive, got " + timeoutMs);
        }
        try {
            SimClientInfo.checkNodeId(nodeId);
        } catch (IllegalArgumentException e) {
            throw new RdmaException(Errno.EINVAL, e.getMessage().replace("EINVAL: ", ""));
        }
        InetAddress local = server.getAddress().isLoopbackAddress() ? server.getAddress() : null;
        DatagramSocket ctl = null;
        DatagramSocket data = null;
        try {
            ctl = new DatagramSocket(new InetSocketAddress(local, 0));
            ctl.connect(server);
            ctl.setSoTimeout(timeoutMs);
            data = new DatagramSocket(new InetSocketAddress(local, 0));
            SimClientInfo asked = new SimClientInfo(data.getLocalPort(), 0, issm, nodeId);
            IbsimClient probe = new IbsimClient(server, ctl, data, 0, nodeId);
            SimCtl reply = probe.ctl(SimCtl.SIM_CTL_CONNECT, asked.pack());
            SimClientInfo got;
            try {
                got = SimClientInfo.unpack(reply.data);
            } catch (IllegalArgumentException e) {
                throw new RdmaException(Errno.EPROTO, "ibsim at " + server + " answered CONNECT with " + e.getMessage());
            }
            int id = got.id();
            if (id < 0 || id >= IBSIM_MAX_CLIENTS) {
                throw new RdmaException(Errno.EPROTO, "ibsim at " + server + " assigned client index " + id
                        + ", outside 0.." + (IBSIM_MAX_CLIENTS - 1));
            }
            data.connect(new InetSocketAddress(server.getAddress(), server.getPort() + 1 + id));
            return new IbsimClient(server, ctl, data, id, got.nodeId());
        } catch (IOException e) {
            closeQuietly(ctl, data);
            throw new RdmaException(Errno.EIO, "cannot open sockets towards ibsim at " + server + ": " + e, e);
        } catch (RuntimeException e) {
            closeQuietly(ctl, data);
            throw e;
        }
    }

    private static void closeQuietly(DatagramSocket a, DatagramSocket b) {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    /** @return the client index ibsim assigned ({@code sc->clientid}): TID bits 63..48 of the requests it sends */
    public int clientId() {
        return clientId;
    }

    /** @return the id of the node ibsim attached this client to (the reply's {@code nodeid}) */
    public String nodeId() {
        return nodeId;
    }

    /** @return the simulator's control address */
    public InetSocketAddress server() {
        return server;
    }

    /** @return the local UDP port of the data socket (the {@code id} sent with CONNECT) */
    public int dataPort() {
        return data.getLocalPort();
    }

    // ================================================================== control requests

    /**
     * One control exchange, umad2sim's {@code sim_ctl()}: sends the request and waits for the
     * answer of the same type.
     *
     * @param type    {@code SIM_CTL_*}
     * @param payload request data (at most 64 bytes)
     * @return the answer
     * @throws RdmaException {@code ETIMEDOUT}, {@code ECONNREFUSED}, {@code EIO} (see the class)
     */
    public SimCtl ctl(int type, byte[] payload) {
        SimCtl req = SimCtl.request(clientId, type, payload);
        byte[] out = req.pack();
        synchronized (ctlLock) {
            if (closed) {
                throw new RdmaException(Errno.ENOTCONN, "ibsim client " + clientId + " is closed");
            }
            try {
                int timeoutMs = ctl.getSoTimeout();
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
                ctl.send(new DatagramPacket(out, out.length));
                while (true) {
                    DatagramPacket in = new DatagramPacket(ctlBuf, ctlBuf.length);
                    receiveBefore(in, deadline, timeoutMs);
                    SimCtl reply;
                    try {
                        reply = SimCtl.unpack(ctlBuf, 0, in.getLength());
                    } catch (IllegalArgumentException e) {
                        LOG.fine(() -> "ibsim " + server + ": dropped a " + in.getLength() + "-byte control reply");
                        continue;
                    }
                    if (!reply.hasMagic()) {
                        LOG.fine(() -> "ibsim " + server + ": dropped a control reply without magic: " + reply);
                        continue;
                    }
                    if (reply.type == SimCtl.SIM_CTL_ERROR) {
                        throw refused(type);
                    }
                    if (reply.type != type) {
                        // the late answer to an earlier request that timed out
                        continue;
                    }
                    return reply;
                }
            } catch (SocketTimeoutException e) {
                throw new RdmaException(Errno.ETIMEDOUT, "ibsim at " + server + " did not answer "
                        + SimCtl.typeName(type) + " in time");
            } catch (PortUnreachableException e) {
                throw new RdmaException(Errno.ECONNREFUSED, "nothing listens at " + server
                        + " (is ibsim running in remote mode, ibsim -r -l " + server.getPort() + "?)", e);
            } catch (IOException e) {
                throw new RdmaException(Errno.EIO, SimCtl.typeName(type) + " to ibsim at " + server + " failed: " + e,
                        e);
            }
        }
    }

    /** Receives on the control socket, giving up at {@code deadline} however many stray datagrams come. */
    private void receiveBefore(DatagramPacket in, long deadline, int timeoutMs) throws IOException {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
            throw new SocketTimeoutException();
        }
        ctl.setSoTimeout((int) left);
        try {
            ctl.receive(in);
        } finally {
            ctl.setSoTimeout(timeoutMs);
        }
    }

    private RdmaException refused(int type) {
        if (type == SimCtl.SIM_CTL_CONNECT) {
            return new RdmaException(Errno.ENODEV, "ibsim at " + server + " refused to attach to node \""
                    + nodeId + "\": no such node id or NodeDescription, all " + IBSIM_MAX_CLIENTS
                    + " client slots taken, or an SM already attached there");
        }
        return new RdmaException(Errno.EIO, "ibsim at " + server + " refused " + SimCtl.typeName(type)
                + " of client " + clientId);
    }

    /**
     * {@code SIM_CTL_GET_PORT}: the LID and PortState of the client's port.
     *
     * @return {@code struct sim_port}
     */
    public SimPort getPort() {
        ByteBuffer b = ctl(SimCtl.SIM_CTL_GET_PORT, new byte[4]).dataBuffer();
        return new SimPort(b.getShort(0) & 0xFFFF, b.get(2) & 0xFF);
    }

    /**
     * {@code SIM_CTL_GET_VENDOR}: the node's vendor, part and revision (from its NodeInfo) and a
     * firmware version (always 1).
     *
     * @return {@code struct sim_vendor}
     */
    public SimVendor getVendor() {
        ByteBuffer b = ctl(SimCtl.SIM_CTL_GET_VENDOR, new byte[24]).dataBuffer();
        return new SimVendor(b.getInt(0), b.getInt(4), b.getInt(8), b.getLong(16));
    }

    /**
     * {@code SIM_CTL_GET_GUID}: the node GUID ({@code node->nodeguid}, sent in host order).
     *
     * @return NodeInfo:NodeGUID
     */
    public long getGuid() {
        return ctl(SimCtl.SIM_CTL_GET_GUID, new byte[8]).dataBuffer().getLong(0);
    }

    /**
     * {@code SIM_CTL_GET_GID}: 16 bytes, the port's GID prefix in wire order followed by the
     * <em>node</em> GUID in host order (ibsim's {@code sim_ctl_get_gid()}; umad2sim does not use
     * it). Returned as ibsim sends it.
     *
     * @return the raw 16 bytes
     */
    public byte[] getGid() {
        byte[] gid = new byte[16];
        System.arraycopy(ctl(SimCtl.SIM_CTL_GET_GID, new byte[16]).data, 0, gid, 0, 16);
        return gid;
    }

    /**
     * {@code SIM_CTL_GET_NODEINFO}: the node's NodeInfo attribute as ibsim stores it. Its
     * PortGUID field holds the node GUID; ibsim's SMA answers NodeInfo with NodeGUID + port.
     *
     * @return NodeInfo (IBTA 14.2.5.3)
     */
    public NodeInfo getNodeInfo() {
        return new NodeInfo().unpack(ctl(SimCtl.SIM_CTL_GET_NODEINFO, new byte[SimCtl.SIM_CTL_MAX_DATA]).data, 0);
    }

    /**
     * {@code SIM_CTL_GET_PORTINFO}: the PortInfo attribute of a port of the client's node, with
     * the fields the SM sets (LID, MasterSMLID, LMC, states, GID prefix, operational VLs) brought
     * up to date ({@code update_portinfo()}).
     *
     * @param portNum 0 for the client's own port, else a port of its node
     * @return PortInfo (IBTA 14.2.5.6)
     */
    public PortInfo getPortInfo(int portNum) {
        byte[] req = new byte[SimCtl.SIM_CTL_MAX_DATA];
        req[0] = (byte) portNum;
        return new PortInfo().unpack(ctl(SimCtl.SIM_CTL_GET_PORTINFO, req).data, 0);
    }

    /**
     * {@code SIM_CTL_SET_ISSM} (umad2sim's {@code sim_client_set_sm()}): sets or clears
     * PortInfo:CapabilityMask.IsSM of the client's port (a master SM then polls the port with
     * SubnGet(SMInfo)) and whether the client receives QP0/QP1 requests.
     *
     * @param issm the new value
     */
    public void setIsSm(boolean issm) {
        ctl(SimCtl.SIM_CTL_SET_ISSM, ByteBuffer.allocate(4).order(SimCtl.HOST_ORDER).putInt(0, issm ? 1 : 0).array());
    }

    /**
     * {@code SIM_CTL_GET_PKEYS}: the first 32 entries of the port's P_Key table (host order).
     *
     * @return the P_Keys, 0 for unused entries
     */
    public int[] getPkeys() {
        ByteBuffer b = ctl(SimCtl.SIM_CTL_GET_PKEYS, new byte[SimCtl.SIM_CTL_MAX_DATA]).dataBuffer();
        int[] pkeys = new int[SimCtl.SIM_CTL_MAX_DATA / 2];
        for (int i = 0; i < pkeys.length; i++) {
            pkeys[i] = b.getShort(2 * i) & 0xFFFF;
        }
        return pkeys;
    }

    // ================================================================== MADs

    /**
     * Sends one MAD to the simulator (umad2sim's {@code umad2sim_write()}). ibsim replaces bits
     * 63..48 of a request's TransactionID with {@link #clientId()}.
     *
     * @param frame the frame
     * @throws RdmaException {@code EIO} if the socket fails, {@code ENOTCONN} once closed
     */
    public void send(SimRequest frame) {
        byte[] out = frame.pack();
        try {
            data.send(new DatagramPacket(out, out.length));
        } catch (IOException e) {
            if (closed) {
                throw new RdmaException(Errno.ENOTCONN, "ibsim client " + clientId + " is closed");
            }
            throw new RdmaException(Errno.EIO, "sending a MAD to ibsim at " + server + " failed: " + e, e);
        }
    }

    /**
     * Waits for the next MAD from the simulator (umad2sim's {@code umad2sim_read()}).
     *
     * @return the frame
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) for a datagram that is not a
     *                                  288-byte frame (the caller counts and drops it)
     * @throws IOException              when the socket fails or the client is closed
     */
    public SimRequest receive() throws IOException {
        byte[] buf = new byte[RECEIVE_BUFFER];
        DatagramPacket in = new DatagramPacket(buf, buf.length);
        data.receive(in);
        return SimRequest.unpack(buf, 0, in.getLength());
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return closed;
    }

    /**
     * {@code SIM_CTL_DISCONNECT} (umad2sim's {@code sim_client_exit()}), then closes the sockets;
     * a thread blocked in {@link #receive()} gets an {@link IOException}. Idempotent; a simulator
     * that is gone is not an error here.
     */
    @Override
    public void close() {
        synchronized (ctlLock) {
            if (closed) {
                return;
            }
            try {
                ctl(SimCtl.SIM_CTL_DISCONNECT, new byte[0]);
            } catch (RdmaException e) {
                LOG.log(Level.FINE, "ibsim " + server + ": disconnect of client " + clientId + " failed", e);
            }
            closed = true;
        }
        closeQuietly(ctl, data);
    }

    @Override
    public String toString() {
        return "ibsim client " + clientId + " at \"" + nodeId + "\" via " + server;
    }
}
