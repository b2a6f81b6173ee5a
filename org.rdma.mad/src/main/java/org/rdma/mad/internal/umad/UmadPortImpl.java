package org.rdma.mad.internal.umad;

import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadSendWc;
import org.rdma.mad.MadService;
import org.rdma.mad.Rmpp;
import org.rdma.mad.umad.UmadAddr;
import org.rdma.mad.umad.UmadPort;
import org.rdma.mad.umad.UmadRegAttr;
import org.rdma.mad.umad.UserMad;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.AhAttrType;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.time.IbClock;
import org.rdma.verbs.wire.MadHdr;

/**
 * One open user-MAD port: {@code struct ib_umad_file} of ib_umad. Its agents table
 * ({@code file->agent[]}), the receive queue every agent's MADs go to ({@code recv_list}), and the
 * sends still outstanding ({@code send_list}, for duplicate TIDs and for the ETIMEDOUT packets).
 *
 * <p>Locking: {@link #regLock} serialises registrations and close ({@code file->mutex});
 * {@link #lock} guards the queue, the send list and the flags and is the monitor readers wait on
 * ({@code recv_wait}). Neither is held while the MAD layer is called.
 */
final class UmadPortImpl implements UmadPort {
    private static final System.Logger LOG = System.getLogger(UmadPortImpl.class.getName());
    /** {@code MAX_UMAD_RECV_LIST_SIZE}: received MADs beyond this many unread are dropped. */
    static final int MAX_RECV_LIST_SIZE = 200_000;
    /** Hop limit of a GRH built from a received one ({@code ib_init_ah_attr_from_wc()}). */
    private static final int WC_HOP_LIMIT = 0xff;

    /** A send in flight: {@code struct ib_umad_packet} on {@code send_list}. */
    private record Pending(int agentId, UmadAddr addr, byte[] header, long tid, int mgmtClass, boolean response,
            IbAh ah) {
    }

    private final UmadLayer layer;
    private final MadService mad;
    private final IbClock clock;
    private final IbDevice device;
    private final int portNum;
    private final Object regLock = new Object();
    private final Object lock = new Object();
    private final MadAgent[] agents = new MadAgent[MAX_AGENTS];
    private final ArrayDeque<UserMad> recvList = new ArrayDeque<>();
    private final List<Pending> sendList = new ArrayList<>();
    private boolean closed;
    private boolean dead;
    private long dropped;

    UmadPortImpl(UmadLayer layer, IbDevice device, int portNum) {
        this.layer = layer;
        this.mad = layer.mad();
        this.clock = layer.clock();
        this.device = device;
        this.portNum = portNum;
    }

    @Override
    public String caName() {
        return device.name();
    }

    @Override
    public int portNum() {
        return portNum;
    }

    // ------------------------------------------------------------------ registration

    @Override
    public int register(int mgmtClass, int mgmtVersion, int rmppVersion, BitSet methodMask) {
        return register2(new UmadRegAttr(mgmtClass, mgmtVersion, 0, methodMask, 0, rmppVersion));
    }

    @Override
    public int registerOui(int mgmtClass, int rmppVersion, int oui, BitSet methodMask) {
        RdmaException.check(mgmtClass >= MadHdr.IB_MGMT_CLASS_VENDOR_RANGE2_START
                && mgmtClass <= MadHdr.IB_MGMT_CLASS_VENDOR_RANGE2_END, Errno.EINVAL,
                String.format("class 0x%02x is not a vendor class with an OUI", mgmtClass));
        return register2(new UmadRegAttr(mgmtClass, 1, 0, methodMask, oui, rmppVersion));
    }

    /** {@code ib_umad_reg_agent2()}: QP0 for the SMP classes, QP1 for the rest, as libibumad picks. */
    @Override
    public int register2(UmadRegAttr attr) {
        int cls = attr.mgmtClass();
        boolean smi = cls == MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED || cls == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
        MadRegRequest req = null;
        if (cls != 0) {
            req = MadRegRequest.of(cls, attr.mgmtClassVersion());
            req.oui = attr.oui();
            req.methodMask.or(attr.methodMask());
        }
        int flags = (attr.flags() & UmadRegAttr.UMAD_USER_RMPP) != 0 ? MadAgent.FLAG_USER_RMPP : 0;
        synchronized (regLock) {
            checkOpen();
            int id = 0;
            while (id < MAX_AGENTS && agents[id] != null) {
                id++;
            }
            if (id == MAX_AGENTS) {
                throw new RdmaException(Errno.ENOMEM, this + ": all " + MAX_AGENTS + " agents are in use");
            }
            final int agentId = id;
            MadAgent a = mad.registerMadAgent(device, portNum, smi ? QpType.SMI : QpType.GSI, req,
                    attr.rmppVersion(), (ag, wc) -> sendDone(agentId, wc), (ag, sb, wc) -> recvDone(agentId, ag, wc),
                    this, flags);
            synchronized (lock) {
                agents[id] = a;
            }
            return id;
        }
    }

    @Override
    public void unregister(int agentId) {
        MadAgent a;
        synchronized (regLock) {
            checkOpen();
            a = agent(agentId);
            RdmaException.check(a != null, Errno.EINVAL, this + ": agent " + agentId + " is not registered");
            synchronized (lock) {
                agents[agentId] = null;
            }
        }
        mad.unregisterMadAgent(a);
    }

    private MadAgent agent(int agentId) {
        synchronized (lock) {
            return agentId >= 0 && agentId < MAX_AGENTS ? agents[agentId] : null;
        }
    }

    private void checkOpen() {
        synchronized (lock) {
            RdmaException.check(!closed, Errno.EINVAL, this + " is closed");
            RdmaException.check(!dead, Errno.EIO, this + ": the device is gone");
        }
    }

    // ------------------------------------------------------------------ send (ib_umad_write)

    @Override
    public long send(int agentId, UmadAddr addr, byte[] buf, int length, int timeoutMs, int retries) {
        RdmaException.check(agentId >= 0 && agentId < MAX_AGENTS, Errno.EINVAL, "agent id " + agentId + " out of range");
        RdmaException.check(addr != null && buf != null, Errno.EINVAL, "a user MAD needs an address and data");
        RdmaException.check(length >= MadHdr.IB_MGMT_RMPP_HDR && length <= buf.length, Errno.EINVAL,
                "bad user MAD length " + length);
        RdmaException.check(timeoutMs >= 0 && retries >= 0, Errno.EINVAL,
                "bad timeout/retries " + timeoutMs + "/" + retries);
        checkOpen();
        MadAgent a = agent(agentId);
        RdmaException.check(a != null, Errno.EIO, this + ": agent " + agentId + " is not registered");
        int cls = buf[1] & 0xff;
        int hdrLen = MadHdr.dataOffset(cls);
        boolean rmppSegment = MadHdr.isClassRmpp(cls) && Rmpp.isActive(buf);
        boolean userRmpp = (a.flags() & MadAgent.FLAG_USER_RMPP) != 0;
        boolean rmppActive = rmppSegment && a.rmppVersion() != 0 && !userRmpp;
        int dataLen = length - hdrLen;
        RdmaException.check(dataLen >= 0 && (rmppActive || length <= MadHdr.IB_MGMT_MAD_SIZE), Errno.EINVAL,
                "a user MAD of class 0x" + Integer.toHexString(cls) + " cannot be " + length + " bytes");
        byte[] m = Arrays.copyOf(buf, length);
        boolean response = (m[3] & MadHdr.IB_MGMT_METHOD_RESP) != 0;
        long tid = getLong(m, 8);
        if (!response) {
            // ib_umad_write(): the agent's hi_tid routes the response back to it
            tid = a.tid((int) tid);
            putLong(m, 8, tid);
        }
        IbAh ah = mad.createAh(a, ahAttr(addr));
        MadSendBuf sb;
        try {
            sb = mad.createSendMad(a, addr.qpn(), addr.pkeyIndex(), rmppActive, hdrLen, dataLen, m[0] & 0xff);
        } catch (RuntimeException e) {
            ah.destroy();
            throw e;
        }
        System.arraycopy(m, 0, sb.mad(), 0, length);
        sb.setAh(ah);
        sb.setTimeoutMs(timeoutMs);
        sb.setRetries(retries);
        if (addr.qkey() != 0) {
            sb.setRemoteQkey(addr.qkey());
        }
        Pending p = new Pending(agentId, addr, Arrays.copyOf(m, MadHdr.IB_MGMT_MAD_HDR), tid, cls, response, ah);
        sb.setContext(0, p);
        synchronized (lock) {
            if (!(rmppSegment && userRmpp) && isDuplicate(p)) {
                mad.freeSendMad(sb);
                ah.destroy();
                throw new RdmaException(Errno.EINVAL, String.format("%s: TID 0x%016x of class 0x%02x is already"
                        + " outstanding", this, tid, cls));
            }
            sendList.add(p);
        }
        int rc = mad.postSendMad(sb);
        if (rc != 0) {
            synchronized (lock) {
                sendList.remove(p);
            }
            mad.freeSendMad(sb);
            ah.destroy();
            Errno e = Errno.of(rc);
            throw new RdmaException(e == null ? Errno.EIO : e, this + ": posting the MAD failed (" + rc + ")");
        }
        return tid;
    }

    /** {@code is_duplicate()}: a second request with an outstanding TID, or a response to the same place. Lock held. */
    private boolean isDuplicate(Pending p) {
        for (Pending s : sendList) {
            if (s.tid != p.tid || s.mgmtClass != p.mgmtClass || s.response != p.response) {
                continue;
            }
            if (!p.response || sameDestination(s.addr, p.addr)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameDestination(UmadAddr a, UmadAddr b) {
        if (!a.grhPresent() && !b.grhPresent()) {
            return a.lid() == b.lid();
        }
        return a.grhPresent() && b.grhPresent() && a.gid().equals(b.gid());
    }

    /** The address vector ib_umad builds from the user MAD header. */
    private AhAttr ahAttr(UmadAddr addr) {
        AhAttr at = new AhAttr();
        at.type = device.getLinkLayer(portNum) == LinkLayer.ETHERNET ? AhAttrType.ROCE : AhAttrType.IB;
        at.portNum = portNum;
        at.dlid = addr.lid();
        at.sl = addr.sl();
        at.srcPathBits = addr.pathBits();
        if (addr.grhPresent()) {
            at.setGrh(addr.gid(), addr.flowLabel(), addr.gidIndex(), addr.hopLimit(), addr.trafficClass(), null);
        }
        return at;
    }

    /** {@code send_handler()}: the AH and buffer go; a request nobody answered comes back as ETIMEDOUT. */
    private void sendDone(int agentId, MadSendWc wc) {
        Pending p = (Pending) wc.sendBuf().context(0);
        synchronized (lock) {
            sendList.remove(p);
        }
        mad.freeSendMad(wc.sendBuf());
        try {
            p.ah().destroy();
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "{0}: destroying a send AH failed: {1}", this, e.getMessage());
        }
        if (wc.status() == WcStatus.RESP_TIMEOUT_ERR) {
            queue(new UserMad(agentId, Errno.ETIMEDOUT.value, p.addr(), p.header()), false);
        }
    }

    // ------------------------------------------------------------------ receive (ib_umad_read)

    /** {@code recv_handler()}: the MAD with its source address goes to the receive list. */
    private void recvDone(int agentId, MadAgent a, MadRecvWc wc) {
        if (wc.wc().status != WcStatus.SUCCESS) {
            return;
        }
        queue(new UserMad(agentId, 0, sourceAddr(a, wc), wc.bytes()), true);
    }

    /** {@code queue_packet()}: received MADs beyond {@link #MAX_RECV_LIST_SIZE} are dropped and counted. */
    private void queue(UserMad m, boolean received) {
        synchronized (lock) {
            if (closed || dead) {
                return;
            }
            if (received && recvList.size() >= MAX_RECV_LIST_SIZE) {
                dropped++;
                return;
            }
            recvList.add(m);
            lock.notifyAll();
        }
    }

    /** The user MAD header of a received MAD, its GRH part as {@code ib_init_ah_attr_from_wc()} makes it. */
    private UmadAddr sourceAddr(MadAgent a, MadRecvWc recv) {
        Wc wc = recv.wc();
        UmadAddr addr = new UmadAddr(wc.srcQp, 0, wc.slid, wc.sl, wc.dlidPathBits, false, 0, 0, 0, Gid.ZERO, 0,
                wc.pkeyIndex);
        byte[] grh = recv.grh();
        if (grh == null) {
            return addr;
        }
        int tclass = (grh[0] & 0x0f) << 4 | (grh[1] & 0xf0) >>> 4;
        int flow = (grh[1] & 0x0f) << 16 | (grh[2] & 0xff) << 8 | grh[3] & 0xff;
        int gidIndex = 0;
        try {
            gidIndex = a.device().findGid(Gid.of(grh, 24)).index;
        } catch (RuntimeException e) {
            // the destination GID is no longer ours: index 0, as the MAD layer answers it
        }
        return addr.withGrh(Gid.of(grh, 8), gidIndex, WC_HOP_LIMIT, tclass, flow);
    }

    @Override
    public UserMad recv(int timeoutMs) {
        long deadline = deadline(timeoutMs);
        while (true) {
            synchronized (lock) {
                RdmaException.check(!closed, Errno.EINVAL, this + " is closed");
                UserMad m = recvList.poll();
                if (m != null) {
                    return m;
                }
                RdmaException.check(!dead, Errno.EIO, this + ": the device is gone");
            }
            await(timeoutMs, deadline);
        }
    }

    @Override
    public boolean poll(int timeoutMs) {
        long deadline = deadline(timeoutMs);
        while (true) {
            synchronized (lock) {
                RdmaException.check(!closed, Errno.EINVAL, this + " is closed");
                if (!recvList.isEmpty()) {
                    return true;
                }
                RdmaException.check(!dead, Errno.EIO, this + ": the device is gone");
            }
            try {
                await(timeoutMs, deadline);
            } catch (RdmaException e) {
                if (e.errno() == Errno.ETIMEDOUT) {
                    return false;
                }
                throw e;
            }
        }
    }

    private long deadline(int timeoutMs) {
        return timeoutMs < 0 ? Long.MAX_VALUE : clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    }

    /** One wait for the receive list: ETIMEDOUT past the deadline, EINTR when interrupted. */
    private void await(int timeoutMs, long deadline) {
        if (timeoutMs == 0 || clock.nanoTime() >= deadline) {
            throw new RdmaException(Errno.ETIMEDOUT, this + ": no MAD within " + timeoutMs + " ms");
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new RdmaException(Errno.EINTR, this + ": interrupted while waiting for a MAD");
        }
        layer.waiter().await(lock, this::readable, deadline);
    }

    private boolean readable() {
        synchronized (lock) {
            return !recvList.isEmpty() || closed || dead;
        }
    }

    /** Received MADs dropped because nobody read them. */
    long dropped() {
        synchronized (lock) {
            return dropped;
        }
    }

    // ------------------------------------------------------------------ close / kill

    @Override
    public void close() {
        synchronized (regLock) {
            synchronized (lock) {
                if (closed) {
                    return;
                }
                closed = true;
                recvList.clear();
                lock.notifyAll();
            }
            unregisterAll();
        }
        layer.forget(this);
    }

    /** {@code ib_umad_kill_port()}: the device is going; agents go now and readers get EIO. */
    void kill() {
        synchronized (regLock) {
            synchronized (lock) {
                if (dead) {
                    return;
                }
                dead = true;
                recvList.clear();
                lock.notifyAll();
            }
            unregisterAll();
        }
    }

    /** Caller holds {@link #regLock}. */
    private void unregisterAll() {
        List<MadAgent> gone = new ArrayList<>();
        synchronized (lock) {
            for (int i = 0; i < MAX_AGENTS; i++) {
                if (agents[i] != null) {
                    gone.add(agents[i]);
                    agents[i] = null;
                }
            }
        }
        for (MadAgent a : gone) {
            try {
                mad.unregisterMadAgent(a);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "{0}: unregistering an agent failed: {1}", this, e.getMessage());
            }
        }
    }

    private static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | (b[off + i] & 0xff);
        }
        return v;
    }

    private static void putLong(byte[] b, int off, long v) {
        for (int i = 0; i < 8; i++) {
            b[off + i] = (byte) (v >>> (56 - 8 * i));
        }
    }

    @Override
    public String toString() {
        return "umad " + device.name() + "/" + portNum;
    }
}
