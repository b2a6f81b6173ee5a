package org.rdma.sm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.mad.MadCounter;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.McastMember;
import org.rdma.mad.sa.NodeRecord;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.PortInfoRecord;
import org.rdma.mad.sa.SaClient;
import org.rdma.mad.sa.SaMad;
import org.rdma.mad.sa.ServiceRecord;
import org.rdma.sm.testkit.SmNet;
import org.rdma.sm.testkit.Verbs;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.PortCapFlags;
import org.rdma.verbs.PortModify;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.wire.MadHdr;

/** The SA server through org.rdma.mad's SA client: tables over RMPP, multicast groups, services. */
class SaServerTest {
    static final int QKEY = 0x11111111;
    SmNet net;
    final SaClient client = new SaClient();

    @AfterEach
    void tearDown() {
        if (net != null) {
            net.close();
        }
    }

    private void up() {
        net = new SmNet(SmNet.ring(3, 2), 0).up();
        net.sa.registerClient(client);
    }

    private List<byte[]> table(CoreDevice from, org.rdma.mad.sa.SaRecord template, long mask) {
        List<List<byte[]>> out = new ArrayList<>();
        assertTrue(net.sa.getTable(client, from, 1, template, mask, 1000, (st, recs) -> {
            assertEquals(0, st);
            out.add(recs);
        }) >= 0);
        net.settle();
        assertEquals(1, out.size());
        return out.get(0);
    }

    @Test
    void getTableAnswersLargerThanOneMadArriveWholeThroughRmpp() {
        up();
        CoreDevice h1 = net.dev("h1");
        PathRecord t = new PathRecord();
        t.sgid = h1.queryGid(1, 0);
        long segs = net.mad.counter(h1, 1, MadCounter.RMPP_SEGMENTS);
        List<byte[]> recs = table(h1, t, PathRecord.SGID);
        Set<Integer> dlids = new HashSet<>();
        for (byte[] r : recs) {
            PathRecord p = new PathRecord().unpack(r, 0);
            assertEquals(h1.queryPort(1).lid, p.slid);
            dlids.add(p.dlid);
        }
        assertEquals(9, recs.size(), "one path to each of 6 CAs and 3 switches: 576 bytes");
        assertEquals(9, dlids.size());
        assertTrue(net.mad.counter(h1, 1, MadCounter.RMPP_SEGMENTS) - segs >= 3, "3 segments of 200 bytes");
        // every node, 112 bytes a record
        List<byte[]> nodes = table(h1, new NodeRecord(), 0);
        assertEquals(9, nodes.size());
        Set<Long> guids = new HashSet<>();
        for (byte[] r : nodes) {
            guids.add(new NodeRecord().unpack(r, 0).nodeInfo.portGuid);
        }
        assertTrue(guids.contains(h1.queryGid(1, 0).interfaceId()));
        assertEquals(9, guids.size());
        // a LID-selected path and node record by Get
        PathRecord q = new PathRecord();
        q.slid = h1.queryPort(1).lid;
        q.dlid = net.dev("h5").queryPort(1).lid;
        Result<PathRecord> got = path(h1, q, PathRecord.SLID | PathRecord.DLID);
        assertEquals(0, got.status);
        assertEquals(net.dev("h5").queryGid(1, 0), got.rec.dgid);
        // no source given: the requester's own port
        q = new PathRecord();
        q.dgid = net.dev("h5").queryGid(1, 0);
        got = path(net.dev("h3"), q, PathRecord.DGID);
        assertEquals(0, got.status);
        assertEquals(net.dev("h3").queryPort(1).lid, got.rec.slid);
    }

    @Test
    void nothingMatchingIsAnEmptyTableForGetTableAndNoRecordsForGet() {
        up();
        CoreDevice h1 = net.dev("h1");
        NodeRecord none = new NodeRecord();
        none.lid = 0xbfff;
        assertEquals(List.of(), table(h1, none, NodeRecord.LID));
        PathRecord q = new PathRecord();
        q.slid = h1.queryPort(1).lid;
        q.dlid = 0xbfff;
        assertEquals(-Errno.EINVAL.value, path(h1, q, PathRecord.SLID | PathRecord.DLID).status,
                "SA_ERR_NO_RECORDS, reported as sa_query.c does");
    }

    @Test
    void multicastMembersJoinThroughTheSaAndUdMulticastReachesThemAll() {
        up();
        Gid mgid = Gid.parse("ff12:401b:ffff:0000:0000:0000:0000:0042");
        SaServer sa = net.sm.sa();
        int setsBefore = sa.requests(MadHdr.IB_MGMT_METHOD_SET, SaMad.ATTR_MC_MEMBER_REC);
        List<Object[]> joins = new ArrayList<>();
        List<McastMember> members = new ArrayList<>();
        String[] hosts = {"h1", "h1", "h3", "h5", "h2"};
        for (int i = 0; i < hosts.length; i++) {
            CoreDevice d = net.dev(hosts[i]);
            McMemberRecord rec = new McMemberRecord();
            rec.mgid = mgid;
            rec.portGid = d.queryGid(1, 0);
            rec.qkey = QKEY;
            rec.pkey = 0xffff;
            rec.joinState = i == hosts.length - 1 ? McMemberRecord.SENDONLY_NONMEMBER_JOIN : McMemberRecord.FULLMEMBER_JOIN;
            members.add(net.sa.joinMulticast(client, d, 1, rec, McMemberRecord.MGID | McMemberRecord.PORT_GID
                    | McMemberRecord.QKEY | McMemberRecord.PKEY, (st, r) -> joins.add(new Object[] {st, r}), null));
            net.settle();
        }
        assertEquals(5, joins.size());
        int mlid = ((McMemberRecord) joins.get(0)[1]).mlid;
        assertEquals(0xC000, mlid, "the first MLID");
        for (Object[] j : joins) {
            assertEquals(0, j[0]);
            assertEquals(mlid, ((McMemberRecord) j[1]).mlid);
            assertEquals(QKEY, ((McMemberRecord) j[1]).qkey);
        }
        assertEquals(4, sa.requests(MadHdr.IB_MGMT_METHOD_SET, SaMad.ATTR_MC_MEMBER_REC) - setsBefore,
                "h1's second join did not change its port's membership: the SA never saw it");

        // UD multicast from the send-only member reaches the three full members
        List<Verbs> rx = new ArrayList<>();
        for (String h : new String[] {"h1", "h3", "h5"}) {
            Verbs v = new Verbs(net.dev(h), QpType.UD);
            v.toRts(null, 0, QKEY);
            v.qp.attachMcast(mgid, mlid);
            v.postRecv(0, 4096);
            rx.add(v);
        }
        Verbs tx = new Verbs(net.dev("h2"), QpType.UD);
        tx.toRts(null, 0, QKEY);
        AhAttr av = new AhAttr();
        av.portNum = 1;
        av.dlid = mlid;
        av.setGrh(mgid, 0, 0, 1, 0, null);
        IbAh ah = tx.pd.createAh(av, 0);
        SendWr w = new SendWr();
        w.ah = ah;
        w.remoteQpn = 0xFFFFFF;
        w.remoteQkey = QKEY;
        tx.postSend(0, 500, w);
        net.advance(50);
        tx.poll();
        assertEquals(WcStatus.SUCCESS, tx.sent.get(0).status);
        for (Verbs v : rx) {
            v.poll();
            assertEquals(1, v.received.size(), v.dev.name());
            assertEquals(540, v.received.get(0).byteLen, "GRH + 500 bytes");
        }

        // leaving: the SA hears of h1 only when its last member leaves
        int deletes = sa.requests(MadHdr.IB_SA_METHOD_DELETE, SaMad.ATTR_MC_MEMBER_REC);
        net.sa.freeMulticast(members.get(0));
        net.settle();
        assertEquals(deletes, sa.requests(MadHdr.IB_SA_METHOD_DELETE, SaMad.ATTR_MC_MEMBER_REC));
        net.sa.freeMulticast(members.get(1));
        net.settle();
        assertEquals(deletes + 1, sa.requests(MadHdr.IB_SA_METHOD_DELETE, SaMad.ATTR_MC_MEMBER_REC));
        assertEquals(3, sa.groups().get(mgid).members.size());
        for (int i = 2; i < members.size(); i++) {
            net.sa.freeMulticast(members.get(i));
        }
        net.settle();
        assertTrue(sa.groups().isEmpty(), "the last member deleted the group");
        ah.destroy();
        tx.close();
        for (Verbs v : rx) {
            v.qp.detachMcast(mgid, mlid);
            v.close();
        }
    }

    @Test
    void aZeroMgidCreatesAGroupWithAnAllocatedMgid() {
        up();
        CoreDevice d = net.dev("h3");
        McMemberRecord rec = new McMemberRecord();
        rec.portGid = d.queryGid(1, 0);
        rec.qkey = QKEY;
        rec.joinState = McMemberRecord.FULLMEMBER_JOIN;
        List<Object[]> out = new ArrayList<>();
        net.sa.mcmemberRecQuery(client, d, 1, MadHdr.IB_MGMT_METHOD_SET, rec,
                McMemberRecord.PORT_GID | McMemberRecord.QKEY | McMemberRecord.JOIN_STATE, 1000,
                (st, r) -> out.add(new Object[] {st, r}));
        net.settle();
        assertEquals(0, out.get(0)[0]);
        McMemberRecord r = (McMemberRecord) out.get(0)[1];
        assertTrue(r.mgid.isMulticast(), r.mgid.toString());
        assertEquals(0xC000, r.mlid);
    }

    @Test
    void serviceRecordsAreSetFoundDeletedAndExpireWithTheirLease() {
        up();
        CoreDevice d = net.dev("h3");
        ServiceRecord rec = new ServiceRecord();
        rec.id = 0x1234;
        rec.gid = d.queryGid(1, 0);
        rec.pkey = 0xffff;
        rec.lease = 60;
        rec.setName("srp.target");
        long mask = ServiceRecord.SERVICE_ID | ServiceRecord.SERVICE_GID | ServiceRecord.SERVICE_PKEY
                | ServiceRecord.SERVICE_LEASE | ServiceRecord.SERVICE_NAME;
        assertEquals(0, service(d, MadHdr.IB_MGMT_METHOD_SET, rec, mask).status);
        ServiceRecord q = new ServiceRecord();
        q.id = 0x1234;
        Result<ServiceRecord> found = service(net.dev("h0"), MadHdr.IB_MGMT_METHOD_GET, q, ServiceRecord.SERVICE_ID);
        assertEquals(0, found.status);
        assertEquals("srp.target", found.rec.nameText());
        assertEquals(rec.gid, found.rec.gid);
        net.advance(61_000);
        assertEquals(-Errno.EINVAL.value, service(d, MadHdr.IB_MGMT_METHOD_GET, q, ServiceRecord.SERVICE_ID).status,
                "the lease ran out");
        rec.lease = SaServer.LEASE_INFINITE;
        assertEquals(0, service(d, MadHdr.IB_MGMT_METHOD_SET, rec, mask).status);
        net.advance(120_000);
        assertEquals(0, service(d, MadHdr.IB_MGMT_METHOD_GET, q, ServiceRecord.SERVICE_ID).status);
        assertEquals(0, service(d, MadHdr.IB_SA_METHOD_DELETE, rec, mask).status);
        assertEquals(-Errno.EINVAL.value, service(d, MadHdr.IB_MGMT_METHOD_GET, q, ServiceRecord.SERVICE_ID).status);
    }

    @Test
    void aGetMatchingSeveralRecordsIsAnErrorNotTheFirstOfThem() {
        up();
        long mask = ServiceRecord.SERVICE_ID | ServiceRecord.SERVICE_GID | ServiceRecord.SERVICE_PKEY
                | ServiceRecord.SERVICE_LEASE | ServiceRecord.SERVICE_NAME;
        for (String host : new String[] {"h2", "h4"}) {
            ServiceRecord rec = new ServiceRecord();
            rec.id = 0x5678;
            rec.gid = net.dev(host).queryGid(1, 0);
            rec.pkey = 0xffff;
            rec.lease = SaServer.LEASE_INFINITE;
            rec.setName("nvme." + host);
            assertEquals(0, service(net.dev(host), MadHdr.IB_MGMT_METHOD_SET, rec, mask).status);
        }
        ServiceRecord byId = new ServiceRecord();
        byId.id = 0x5678;
        Result<ServiceRecord> both = service(net.dev("h0"), MadHdr.IB_MGMT_METHOD_GET, byId, ServiceRecord.SERVICE_ID);
        assertEquals(-Errno.EINVAL.value, both.status, "SA_ERR_TOO_MANY_RECORDS, reported as sa_query.c does");
        assertEquals(0, both.rec.id, "an error response carries no record");
        assertEquals(2, table(net.dev("h0"), byId, ServiceRecord.SERVICE_ID).size(), "GetTable returns both");
        byId.setName("nvme.h4");
        Result<ServiceRecord> one = service(net.dev("h0"), MadHdr.IB_MGMT_METHOD_GET, byId, ServiceRecord.SERVICE_ID | ServiceRecord.SERVICE_NAME);
        assertEquals(0, one.status);
        assertEquals(net.dev("h4").queryGid(1, 0), one.rec.gid);

        // a Delete removes the record its ID, GID and P_Key name, whatever else its mask matches
        // (found by SmFuzzTest: deleting both overflowed the one-MAD DeleteResp)
        ServiceRecord h2 = new ServiceRecord();
        h2.id = 0x5678;
        h2.gid = net.dev("h2").queryGid(1, 0);
        h2.pkey = 0xffff;
        Result<ServiceRecord> gone = service(net.dev("h2"), MadHdr.IB_SA_METHOD_DELETE, h2, ServiceRecord.SERVICE_ID);
        assertEquals(0, gone.status);
        assertEquals(h2.gid, gone.rec.gid);
        assertEquals(List.of(net.dev("h4").queryGid(1, 0)), table(net.dev("h0"), byId, ServiceRecord.SERVICE_ID)
                .stream().map(r -> new ServiceRecord().unpack(r, 0).gid).toList());
    }

    @Test
    void aPortsNewCapabilityMaskReachesTheSaThroughTrap144() {
        up();
        CoreDevice h3 = net.dev("h3");
        PortInfoRecord q = new PortInfoRecord();
        q.lid = h3.queryPort(1).lid;
        assertEquals(PortCapFlags.CM_SUP, capabilities(h3, q) & PortCapFlags.CM_SUP);
        long traps = net.sm.trapsReceived();
        h3.modifyPort(1, 0, PortModify.capability(PortCapFlags.CM_SUP, false));
        net.settle();
        assertEquals(traps + 1, net.sm.trapsReceived(), "Trap 144");
        assertEquals(0, capabilities(h3, q) & PortCapFlags.CM_SUP, "the SM swept again and the SA knows");
    }

    private int capabilities(CoreDevice from, PortInfoRecord q) {
        List<byte[]> recs = table(from, q, PortInfoRecord.LID);
        assertEquals(1, recs.size());
        return new PortInfoRecord().unpack(recs.get(0), 0).portInfo.capabilityMask;
    }

    /** A query's callback: its status and record. */
    record Result<T>(int status, T rec) {
    }

    /** {@code ib_sa_path_rec_get()} from {@code from}: its one callback. */
    private Result<PathRecord> path(CoreDevice from, PathRecord q, long mask) {
        List<Result<PathRecord>> out = new ArrayList<>();
        net.sa.pathRecGet(client, from, 1, q, mask, 1000, (st, r) -> out.add(new Result<>(st, r)));
        net.settle();
        assertEquals(1, out.size());
        return out.get(0);
    }

    private Result<ServiceRecord> service(CoreDevice d, int method, ServiceRecord rec, long mask) {
        List<Result<ServiceRecord>> out = new ArrayList<>();
        net.sa.serviceRecQuery(client, d, 1, method, rec, mask, 1000, (st, r) -> out.add(new Result<>(st, r)));
        net.settle();
        assertEquals(1, out.size());
        return out.get(0);
    }
}
