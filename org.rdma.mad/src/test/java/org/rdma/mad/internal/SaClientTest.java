package org.rdma.mad.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.mad.MadCounter;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.McastMember;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaClient;
import org.rdma.mad.sa.SaMad;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.wire.MadHdr;

/** The SA client against a test SA on host A: paths, GetTable over RMPP, multicast aggregation, RoCE. */
class SaClientTest {
    Net net;
    TestSa sa;
    final SaClient client = new SaClient();
    final List<Object[]> results = new ArrayList<>();

    void ib() {
        net = new Net("A", "B", "C");
        net.bringUp("A", "B", "C");
        sa = new TestSa(net.mad, net.dev("A"));
        for (String h : new String[] {"A", "B", "C"}) {
            sa.learn(h, net);
        }
        net.sa.registerClient(client);
    }

    @AfterEach
    void tearDown() {
        if (net != null) {
            net.close();
        }
    }

    PathRecord query(IbDevice from, IbDevice to) {
        PathRecord q = new PathRecord();
        q.sgid = from.queryGid(1, 0);
        q.dgid = to.queryGid(1, 0);
        q.numbPath = 1;
        return q;
    }

    int pathRecGet(IbDevice from, IbDevice to, int timeoutMs) {
        return net.sa.pathRecGet(client, from, 1, query(from, to), PathRecord.DGID | PathRecord.SGID
                | PathRecord.NUMB_PATH, timeoutMs, (st, r) -> results.add(new Object[] {st, r}));
    }

    @Test
    void pathRecGetAnswersTimesOutCancelsAndReportsErrors() {
        ib();
        IbDevice b = net.dev("B");
        IbDevice c = net.dev("C");
        assertTrue(pathRecGet(b, c, 1000) >= 0);
        net.settle();
        assertEquals(1, results.size());
        assertEquals(0, results.get(0)[0]);
        PathRecord p = (PathRecord) results.get(0)[1];
        assertEquals(12, p.dlid);
        assertEquals(11, p.slid);
        assertEquals(4, p.mtu);
        assertEquals(1, sa.count(MadHdr.IB_MGMT_METHOD_GET, SaMad.ATTR_PATH_REC));
        // initAhAttrFromPath: LID route inside the subnet, GRH when it leaves it
        AhAttr ah = new AhAttr();
        net.sa.initAhAttrFromPath(b, 1, p, ah);
        assertEquals(12, ah.dlid);
        assertEquals(1, ah.portNum);
        assertEquals(7, ah.staticRate);
        assertTrue(!ah.hasGrh());
        p.hopLimit = 4;
        AhAttr g = new AhAttr();
        net.sa.initAhAttrFromPath(b, 1, p, g);
        assertTrue(g.hasGrh());
        assertEquals(c.queryGid(1, 0), g.grh.dgid);
        assertEquals(0, g.grh.sgidIndex);
        // error status from the SA: -EINVAL, as sa_query.c's recv_handler
        results.clear();
        sa.failStatus = 0x0300;
        pathRecGet(b, c, 1000);
        net.settle();
        assertEquals(-Errno.EINVAL.value, results.get(0)[0]);
        // no answer: -ETIMEDOUT after the timeout in virtual time
        results.clear();
        sa.failStatus = 0;
        sa.silent = true;
        pathRecGet(b, c, 500);
        net.settle();
        net.advance(499);
        assertTrue(results.isEmpty());
        net.advance(1);
        assertEquals(-Errno.ETIMEDOUT.value, results.get(0)[0]);
        // cancelled: -EINTR
        results.clear();
        int id = pathRecGet(b, c, 500);
        net.settle();
        net.sa.cancelQuery(id);
        net.settle();
        assertEquals(-Errno.EINTR.value, results.get(0)[0]);
        net.advance(1000);
        assertEquals(1, results.size());
        net.sa.unregisterClient(client);
        assertEquals(0, client.users());
    }

    @Test
    void getTableOfAHundredPathRecordsComesWholeOverRmpp() {
        ib();
        IbDevice b = net.dev("B");
        List<List<byte[]>> tables = new ArrayList<>();
        int id = net.sa.getTable(client, b, 1, query(b, net.dev("C")), PathRecord.SGID, 1000, (st, recs) -> {
            assertEquals(0, st);
            tables.add(recs);
        });
        assertTrue(id >= 0);
        net.settle();
        assertEquals(1, tables.size());
        List<byte[]> recs = tables.get(0);
        assertEquals(100, recs.size());
        for (int i = 0; i < 100; i++) {
            assertEquals(0x100 + i, new PathRecord().unpack(recs.get(i), 0).dlid);
        }
        // 100 * 64 bytes = 32 segments of 200 bytes
        assertEquals(32, net.mad.counter(b, 1, MadCounter.RMPP_SEGMENTS));
        assertTrue(net.mad.counter(net.dev("A"), 1, MadCounter.RMPP_SEGMENTS) >= 1, "ACKs reached the SA");
        assertEquals(1, sa.count(MadHdr.IB_SA_METHOD_GET_TABLE, SaMad.ATTR_PATH_REC));
        // a table that fits one MAD still works (no RMPP needed beyond one segment)
        sa.tableSize = 2;
        tables.clear();
        net.sa.getTable(client, b, 1, query(b, net.dev("C")), PathRecord.SGID, 1000, (st, recs2) -> tables.add(recs2));
        net.settle();
        assertEquals(2, tables.get(0).size());
    }

    @Test
    void multicastJoinsAreAggregatedPerPort() {
        ib();
        IbDevice b = net.dev("B");
        Gid mgid = Gid.parse("ff12:401b:ffff:0000:0000:0000:ffff:ffff");
        List<Object[]> joins = new ArrayList<>();
        List<McastMember> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            McMemberRecord rec = new McMemberRecord();
            rec.mgid = mgid;
            rec.portGid = b.queryGid(1, 0);
            rec.joinState = McMemberRecord.FULLMEMBER_JOIN;
            final int n = i;
            members.add(net.sa.joinMulticast(client, b, 1, rec, McMemberRecord.MGID | McMemberRecord.PORT_GID,
                    (st, r) -> joins.add(new Object[] {n, st, r}), null));
        }
        net.settle();
        assertEquals(3, joins.size());
        for (Object[] j : joins) {
            assertEquals(0, j[1]);
            assertEquals(0xC001, ((McMemberRecord) j[2]).mlid);
        }
        assertEquals(1, sa.count(MadHdr.IB_MGMT_METHOD_SET, SaMad.ATTR_MC_MEMBER_REC), "the SA saw one join");
        assertEquals(0xC001, net.sa.getMcmemberRec(b, 1, mgid).mlid);
        net.sa.freeMulticast(members.get(0));
        net.sa.freeMulticast(members.get(1));
        net.settle();
        assertEquals(0, sa.count(MadHdr.IB_SA_METHOD_DELETE, SaMad.ATTR_MC_MEMBER_REC));
        net.sa.freeMulticast(members.get(2));
        net.settle();
        assertEquals(1, sa.count(MadHdr.IB_SA_METHOD_DELETE, SaMad.ATTR_MC_MEMBER_REC), "leave with the last member");
        // another port joins on its own
        McMemberRecord rec = new McMemberRecord();
        rec.mgid = mgid;
        rec.portGid = net.dev("C").queryGid(1, 0);
        rec.joinState = McMemberRecord.FULLMEMBER_JOIN;
        McastMember m = net.sa.joinMulticast(client, net.dev("C"), 1, rec, 0, (st, r) -> joins.add(null), null);
        net.settle();
        assertEquals(2, sa.count(MadHdr.IB_MGMT_METHOD_SET, SaMad.ATTR_MC_MEMBER_REC));
        net.sa.freeMulticast(m);
        net.settle();
    }

    @Test
    void roceAPathRecordIsSynthesisedLocally() {
        net = new Net(true, "192.168.7.1", "192.168.7.2");
        IbDevice a = net.dev("hosta");
        IbDevice b = net.dev("hostb");
        net.sa.registerClient(client);
        Gid sgid = a.queryGid(1, 0);
        Gid dgid = b.queryGid(1, 0);
        PathRecord q = new PathRecord();
        q.sgid = sgid;
        q.dgid = dgid;
        long sentBefore = net.mad.counter(a, 1, MadCounter.SENT);
        assertTrue(net.sa.pathRecGet(client, a, 1, q, PathRecord.DGID | PathRecord.SGID, 1000,
                (st, r) -> results.add(new Object[] {st, r})) >= 0);
        net.settle();
        assertEquals(0, results.get(0)[0]);
        PathRecord p = (PathRecord) results.get(0)[1];
        assertNotNull(p);
        assertTrue(p.roce);
        assertEquals(dgid, p.dgid);
        assertEquals(sentBefore, net.mad.counter(a, 1, MadCounter.SENT), "no SA MAD on RoCE");
        AhAttr ah = new AhAttr();
        net.sa.initAhAttrFromPath(a, 1, p, ah);
        assertTrue(ah.hasGrh());
        assertEquals(dgid, ah.grh.dgid);
        assertEquals(sgid, a.queryGid(1, ah.grh.sgidIndex));
    }
}
