package org.rdma.diags.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaMad;
import org.rdma.mad.umad.UmadAddr;
import org.rdma.mad.umad.UmadPort;
import org.rdma.mad.umad.UmadPortAttr;
import org.rdma.mad.umad.UmadService;
import org.rdma.mad.umad.UserMad;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PerfMgmtMad;
import org.rdma.verbs.wire.PortCounters;
import org.rdma.verbs.wire.Smp;

/**
 * libibmad's request/response calls over a user-MAD port (libibmad/rpc.c {@code mad_rpc()},
 * smp.c {@code smp_query_via()}, gs.c {@code pma_query_via()} and
 * {@code performance_reset_via()}, sa.c, and infiniband-diags' {@code sa_query()}): a MAD goes out
 * with a fresh TID, the reply with the same TID (and agent) comes back; stale replies are skipped.
 * Retries are the MAD layer's ({@code umad_send()} with retries); a request that was never
 * answered is ETIMEDOUT, a reply with a bad MAD status EIO, as libibmad sets {@code errno}.
 */
final class MadRpc implements AutoCloseable {
    /** {@code MAD_DEF_TIMEOUT_MS}. */
    static final int DEF_TIMEOUT_MS = 1000;
    /** {@code MAD_DEF_RETRIES}. */
    static final int DEF_RETRIES = 3;

    /**
     * An SA reply ({@code struct sa_query_result}).
     *
     * @param status     the MAD status
     * @param method     the response method
     * @param attrOffset AttributeOffset: the record stride in 8-byte units
     * @param mad        the (RMPP-reassembled) response
     */
    record SaResult(int status, int method, int attrOffset, byte[] mad) {
        /** {@code sa_get_query_rec()} for every record: offsets into {@link #mad()}. */
        List<Integer> records() {
            List<Integer> out = new ArrayList<>();
            if (status != 0) {
                return out;
            }
            if (method != MadHdr.IB_SA_METHOD_GET_TABLE_RESP) {
                out.add(SaMad.DATA_OFFSET);
                return out;
            }
            int stride = attrOffset * 8;
            if (stride == 0) {
                return out;
            }
            for (int off = SaMad.DATA_OFFSET; off + stride <= mad.length; off += stride) {
                out.add(off);
            }
            return out;
        }
    }

    private final UmadPort port;
    private final UmadPortAttr self;
    private final int timeoutMs;
    private final int retries;
    private final Map<Integer, Integer> agents = new HashMap<>();
    private long mkey;
    private int nextTid = 1;

    private MadRpc(UmadPort port, UmadPortAttr self, int timeoutMs, int retries) {
        this.port = port;
        this.self = self;
        this.timeoutMs = timeoutMs;
        this.retries = retries;
    }

    /**
     * {@code mad_rpc_open_port()}: the port libibumad resolves for {@code ca}/{@code portNum}.
     *
     * @throws RdmaException ENODEV for an unknown CA, EINVAL for a port it lacks
     */
    static MadRpc open(UmadService umad, String ca, int portNum, int timeoutMs, int retries) {
        UmadPortAttr self = umad.getPort(ca, portNum);
        return new MadRpc(umad.openPort(self.caName(), self.portnum()), self, timeoutMs, retries);
    }

    /** The local port ({@code umad_get_port()}): its LID, SM LID, GID. */
    UmadPortAttr self() {
        return self;
    }

    /** {@code smp_mkey_set()}: the M_Key sent in SMPs ({@code -y}). */
    void setMkey(long key) {
        mkey = key;
    }

    private int agent(int mgmtClass, int version, int rmpp) {
        return agents.computeIfAbsent(mgmtClass, c -> port.register(c, version, rmpp, null));
    }

    private long tid() {
        return nextTid++ & 0xffff_ffffL;
    }

    // ------------------------------------------------------------------ SMPs

    /** {@code smp_query_via()}: the 64 data bytes of a SubnGet to {@code dest}. */
    byte[] smpGet(PortId dest, int attrId, int attrMod) {
        return smp(MadHdr.IB_MGMT_METHOD_GET, dest, attrId, attrMod, null);
    }

    /** {@code smp_set_via()}: the data of the SubnSet's GetResp. */
    byte[] smpSet(PortId dest, int attrId, int attrMod, byte[] data) {
        return smp(MadHdr.IB_MGMT_METHOD_SET, dest, attrId, attrMod, data);
    }

    private byte[] smp(int method, PortId dest, int attrId, int attrMod, byte[] data) {
        boolean dr = dest.isDirected();
        int cls = dr ? MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE : MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED;
        int agent = agent(cls, Smp.IB_SMP_CLASS_VERSION, 0);
        Smp s = dr ? Smp.directed(method, attrId, attrMod, tid(), dest.path())
                : Smp.lidRouted(method, attrId, attrMod, tid());
        s.mkey = mkey;
        if (data != null) {
            System.arraycopy(data, 0, s.data, 0, Math.min(data.length, Smp.IB_SMP_DATA_SIZE));
        }
        byte[] m = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        s.pack(m, 0);
        UmadAddr addr = UmadAddr.lid(dr ? Smp.IB_LID_PERMISSIVE : dest.lid(), 0, dest.sl(), 0);
        UserMad r = rpc(agent, addr, m, dest);
        Smp resp = new Smp().unpack(r.data(), 0);
        if (resp.statusCode() != 0) {
            throw new RdmaException(Errno.EIO, String.format("MAD completed with error status 0x%x; dport (%s)",
                    resp.statusCode(), dest));
        }
        return resp.data;
    }

    // ------------------------------------------------------------------ PerfMgt

    /** {@code pma_query_via()}: the 192 data bytes of a PerfMgt Get of {@code attrId} for {@code portSelect}. */
    byte[] pmaGet(PortId dest, int attrId, int portSelect) {
        byte[] data = new byte[PerfMgmtMad.IB_PMA_DATA_SIZE];
        data[1] = (byte) portSelect;
        return pma(MadHdr.IB_MGMT_METHOD_GET, dest, attrId, data);
    }

    /**
     * {@code performance_reset_via()}: a PerfMgt Set clearing the counters of {@code mask}
     * (CounterSelect the low 16 bits, CounterSelect2 the bits above, for PortCounters the byte
     * at 18, for PortCountersExtended the word at 4).
     */
    byte[] pmaReset(PortId dest, int attrId, int portSelect, long mask) {
        byte[] data = new byte[PerfMgmtMad.IB_PMA_DATA_SIZE];
        data[1] = (byte) portSelect;
        data[2] = (byte) (mask >>> 8);
        data[3] = (byte) mask;
        long select2 = mask >>> 16;
        if (attrId == PerfMgmtMad.IB_PMA_PORT_COUNTERS_EXT) {
            for (int i = 0; i < 4; i++) {
                data[4 + i] = (byte) (select2 >>> (24 - 8 * i));
            }
        } else {
            data[18] = (byte) select2;
        }
        return pma(MadHdr.IB_MGMT_METHOD_SET, dest, attrId, data);
    }

    private byte[] pma(int method, PortId dest, int attrId, byte[] data) {
        RdmaException.check(!dest.isDirected(), Errno.EINVAL, "PerfMgt MADs go by LID, not by directed route ("
                + dest + ")");
        int agent = agent(MadHdr.IB_MGMT_CLASS_PERF_MGMT, PerfMgmtMad.IB_PMA_CLASS_VERSION, 0);
        PerfMgmtMad req = PerfMgmtMad.of(method, attrId, 0, tid());
        req.data = data;
        byte[] m = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        req.pack(m, 0);
        UserMad r = rpc(agent, UmadAddr.lid(dest.lid(), 1, dest.sl(), MadHdr.IB_QP1_QKEY), m, dest);
        PerfMgmtMad resp = new PerfMgmtMad().unpack(r.data(), 0);
        if (resp.madHdr.status != 0) {
            throw new RdmaException(Errno.EIO, String.format("MAD completed with error status 0x%x; dport (%s)",
                    resp.madHdr.status, dest));
        }
        return resp.data;
    }

    /** The CapabilityMask of PerfMgt ClassPortInfo, as perfquery reads it (bytes 2..3). */
    static int capMask(byte[] cpi) {
        return (cpi[2] & 0xff) << 8 | cpi[3] & 0xff;
    }

    /** CapabilityMask2 of PerfMgt ClassPortInfo: the 27 bits above RespTimeValue. */
    static int capMask2(byte[] cpi) {
        return ((cpi[4] & 0xff) << 24 | (cpi[5] & 0xff) << 16 | (cpi[6] & 0xff) << 8 | cpi[7] & 0xff) >>> 5;
    }

    /** PortCounters' select-all port ({@code ALL_PORTS}). */
    static final int ALL_PORTS = PortCounters.PORT_SELECT_ALL;

    // ------------------------------------------------------------------ SA

    /**
     * infiniband-diags' {@code sa_query()}: one SubnAdm request to the SM's LID (the port's
     * {@code sm_lid} and {@code sm_sl}), its reply whole (RMPP reassembled by the MAD layer).
     *
     * @param record the template record (packed at 56), or {@code null}
     */
    SaResult sa(int method, int attrId, int attrMod, long compMask, long smKey, byte[] record) {
        RdmaException.check(self.smLid() != 0, Errno.ENODEV, "No SM/SA found on port " + self.caName() + ":"
                + self.portnum());
        int agent = agent(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION, UmadPort.RMPP_VERSION);
        byte[] m = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        MadHdr.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION, method, attrId, attrMod, tid()).pack(m, 0);
        for (int i = 0; i < 8; i++) {
            m[SaMad.SA_HDR_OFFSET + i] = (byte) (smKey >>> (56 - 8 * i));
        }
        SaMad.setCompMask(m, compMask);
        if (record != null) {
            System.arraycopy(record, 0, m, SaMad.DATA_OFFSET, Math.min(record.length, SaMad.DATA_SIZE));
        }
        PortId sm = PortId.ofLid(self.smLid(), self.smSl());
        UserMad r = rpc(agent, UmadAddr.lid(sm.lid(), 1, sm.sl(), MadHdr.IB_QP1_QKEY), m, sm, timeoutMs, 0);
        byte[] resp = r.data();
        MadHdr h = new MadHdr().unpack(resp, 0);
        return new SaResult(h.status, h.method, SaMad.attrOffset(resp), resp);
    }

    /**
     * {@code resolve_portid_str()}: a LID ({@code strtol}, 1..0xfffe), a directed route
     * ({@code 0,1,3}) or a port GUID (looked up through the SA), as {@code type} says; EINVAL when
     * it cannot be read.
     */
    PortId resolve(String addr, DiagOptions.DestType type) {
        switch (type) {
            case DRPATH:
                return PortId.parseDirected(addr);
            case GUID:
                long guid = DiagOptions.parseNumber(addr);
                RdmaException.check(guid != Long.MIN_VALUE && guid != 0, Errno.EINVAL,
                        "can't resolve destination port " + addr);
                return resolveGuid(guid);
            default:
                long lid = DiagOptions.parseNumber(addr);
                RdmaException.check(PortId.validLid(lid), Errno.EINVAL, "can't resolve destination port " + addr);
                return PortId.ofLid((int) lid, 0);
        }
    }

    /**
     * {@code resolve_guid()}: the LID of port GUID {@code guid}, from the SA's PathRecord from this
     * port's GID to the GUID in this subnet ({@code ib_path_query_via()}).
     */
    PortId resolveGuid(long guid) {
        long prefix = self.gidPrefix() != 0 ? self.gidPrefix() : Gid.DEFAULT_SUBNET_PREFIX;
        PathRecord q = new PathRecord();
        q.sgid = Gid.of(prefix, self.portGuid());
        q.dgid = Gid.of(prefix, guid);
        byte[] rec = new byte[PathRecord.BYTES];
        q.pack(rec, 0);
        SaResult r = sa(MadHdr.IB_MGMT_METHOD_GET, SaMad.ATTR_PATH_REC, 0, PathRecord.SGID | PathRecord.DGID, 0, rec);
        if (r.status() != 0) {
            throw new RdmaException(Errno.ENOENT, String.format("can't resolve destination port 0x%x: SA status 0x%04x",
                    guid, r.status()));
        }
        PathRecord p = new PathRecord().unpack(r.mad(), SaMad.DATA_OFFSET);
        return PortId.ofLid(p.dlid, p.sl);
    }

    // ------------------------------------------------------------------ the exchange

    private UserMad rpc(int agent, UmadAddr addr, byte[] mad, PortId dest) {
        return rpc(agent, addr, mad, dest, timeoutMs, retries);
    }

    /**
     * {@code _do_madrpc()}: send, then read until the reply with this TID arrives; ETIMEDOUT when
     * the MAD layer gave up on it (or, failing that, when nothing came for the whole budget).
     */
    private UserMad rpc(int agent, UmadAddr addr, byte[] mad, PortId dest, int timeout, int tries) {
        long tid = port.send(agent, addr, mad, mad.length, timeout, tries);
        int budget = (int) Math.min(Integer.MAX_VALUE, (long) timeout * (tries + 2));
        while (true) {
            UserMad m;
            try {
                m = port.recv(budget);
            } catch (RdmaException e) {
                if (e.errno() == Errno.ETIMEDOUT) {
                    throw new RdmaException(Errno.ETIMEDOUT, "_do_madrpc failed; dport (" + dest + ")", e);
                }
                throw e;
            }
            if (m.agentId() != agent || m.length() < MadHdr.IB_MGMT_MAD_HDR || new MadHdr().unpack(m.data(), 0).tid != tid) {
                continue; // a late reply to an earlier request
            }
            if (m.status() != 0) {
                Errno e = Errno.of(m.status());
                throw new RdmaException(e == null ? Errno.EIO : e, "_do_madrpc failed; dport (" + dest + ")");
            }
            return m;
        }
    }

    @Override
    public void close() {
        port.close();
    }
}
