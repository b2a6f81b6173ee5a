package org.rdma.sm.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.NodeRecord;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.PortInfoRecord;
import org.rdma.mad.sa.SaMad;
import org.rdma.mad.sa.SaRecord;
import org.rdma.mad.sa.ServiceRecord;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.Notice;
import org.rdma.verbs.wire.SmInfo;
import org.rdma.verbs.wire.Smp;

/**
 * Writes the seed corpus of {@link SmFuzzTest} with the SA client's and the SMP encoders: the
 * queries ib_sa and the diagnostic tools send, the registrations and joins that change the SA's
 * state, and the traps an SMA raises. Run from the module directory after {@code mvn test-compile}:
 * {@code java -cp target/test-classes:target/classes:<test classpath> org.rdma.sm.internal.SmFuzzSeeds}.
 */
public final class SmFuzzSeeds {
    private static final Path DIR = Path.of("src/test/resources/org/rdma/sm/internal/SmFuzzTestInputs/request");
    /** The port GIDs of the ring's two CAs ({@code h0} runs the SM). */
    private static final Gid H0 = Gid.linkLocal(0x0002c90300a1b201L);
    private static final Gid H1 = Gid.linkLocal(0x0002c90300a1b301L);

    private SmFuzzSeeds() {
    }

    private static void write(String name, boolean smp, byte[] mad) throws IOException {
        Files.createDirectories(DIR);
        byte[] b = new byte[1 + mad.length];
        b[0] = (byte) (smp ? 1 : 0);
        System.arraycopy(mad, 0, b, 1, mad.length);
        Files.write(DIR.resolve(name), b);
    }

    private static byte[] sa(int method, int attrId, long compMask, SaRecord rec) {
        byte[] m = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        MadHdr.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION, method, attrId, 0, 1).pack(m, 0);
        SaMad.setCompMask(m, compMask);
        if (rec != null) {
            rec.pack(m, SaMad.DATA_OFFSET);
        }
        return m;
    }

    public static void main(String[] args) throws IOException {
        PathRecord path = new PathRecord();
        path.sgid = H1;
        path.dgid = H0;
        path.numbPath = 1;
        write("path-get", false, sa(MadHdr.IB_MGMT_METHOD_GET, SaMad.ATTR_PATH_REC,
                PathRecord.SGID | PathRecord.DGID | PathRecord.NUMB_PATH, path));
        write("path-table-all", false, sa(MadHdr.IB_SA_METHOD_GET_TABLE, SaMad.ATTR_PATH_REC, 0, new PathRecord()));
        write("node-table", false, sa(MadHdr.IB_SA_METHOD_GET_TABLE, SaMad.ATTR_NODE_REC, 0, new NodeRecord()));
        write("portinfo-table", false, sa(MadHdr.IB_SA_METHOD_GET_TABLE, SaMad.ATTR_PORT_INFO_REC, 0,
                new PortInfoRecord()));
        ServiceRecord sr = new ServiceRecord();
        sr.id = 0x1000_0000_0000_0001L;
        sr.gid = H1;
        sr.pkey = 0xffff;
        sr.lease = 0xffff_ffff;
        sr.setName("fuzz service");
        long srMask = ServiceRecord.SERVICE_ID | ServiceRecord.SERVICE_GID | ServiceRecord.SERVICE_PKEY
                | ServiceRecord.SERVICE_NAME;
        write("service-set", false, sa(MadHdr.IB_MGMT_METHOD_SET, SaMad.ATTR_SERVICE_REC, srMask, sr));
        write("service-get", false, sa(MadHdr.IB_MGMT_METHOD_GET, SaMad.ATTR_SERVICE_REC, ServiceRecord.SERVICE_ID, sr));
        write("service-delete", false, sa(MadHdr.IB_SA_METHOD_DELETE, SaMad.ATTR_SERVICE_REC, srMask, sr));
        McMemberRecord mc = new McMemberRecord();
        mc.portGid = H1;
        mc.qkey = 0x0b1b;
        mc.pkey = 0xffff;
        mc.mtuSelector = 2;
        mc.mtu = 4;
        mc.rateSelector = 2;
        mc.rate = 3;
        mc.joinState = 1;
        long create = McMemberRecord.MGID | McMemberRecord.PORT_GID | McMemberRecord.QKEY | McMemberRecord.PKEY
                | McMemberRecord.MTU_SELECTOR | McMemberRecord.MTU;
        write("mcmember-create", false, sa(MadHdr.IB_MGMT_METHOD_SET, SaMad.ATTR_MC_MEMBER_REC, create, mc));
        mc.mgid = Gid.of(0xff12_401b_ffff_0000L, 0xffff_ffffL);
        write("mcmember-join-broadcast", false, sa(MadHdr.IB_MGMT_METHOD_SET, SaMad.ATTR_MC_MEMBER_REC, create, mc));
        write("mcmember-leave", false, sa(MadHdr.IB_SA_METHOD_DELETE, SaMad.ATTR_MC_MEMBER_REC,
                McMemberRecord.MGID | McMemberRecord.PORT_GID, mc));
        write("classportinfo", false, sa(MadHdr.IB_MGMT_METHOD_GET, MadHdr.IB_MGMT_ATTR_CLASS_PORT_INFO, 0, null));
        write("report-not-served", false, sa(MadHdr.IB_MGMT_METHOD_REPORT, SaMad.ATTR_NOTICE, 0, null));

        Smp trap = Smp.lidRouted(MadHdr.IB_MGMT_METHOD_TRAP, Notice.ATTR_ID, 0, 2);
        Notice n = Notice.generic(1, 2, Notice.TRAP_LINK_STATE_CHANGE, 1);
        n.packSmp(trap.data, 0);
        write("trap-128", true, smp(trap));
        write("get-sminfo", true, smp(Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET, SmInfo.ATTR_ID, 0, 3)));
        write("get-nodeinfo-sma", true, smp(Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 4)));
    }

    private static byte[] smp(Smp s) {
        byte[] m = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        s.pack(m, 0);
        return m;
    }
}
