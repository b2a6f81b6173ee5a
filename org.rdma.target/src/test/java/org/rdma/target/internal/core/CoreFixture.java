package org.rdma.target.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Lun;
import org.rdma.scsi.ScsiStatus;
import org.rdma.scsi.SenseKey;
import org.rdma.scsi.TaskAttribute;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.internal.backstore.Backstore;
import org.rdma.target.internal.backstore.RamdiskBackstore;
import org.rdma.target.internal.device.DeviceAttributes;
import org.rdma.target.internal.device.DeviceIdentity;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * A target core with one iSCSI TPG exporting a 1 MiB ramdisk as LUN 0 in demo mode (read-write),
 * a hand-drained executor, and sessions whose recording fabrics log into one shared event list.
 */
abstract class CoreFixture {
    static final String IQN = "iqn.2003-01.org.example:t1";
    static final String INI = "iqn.1994-05.com.example:host1";
    static final String INI2 = "iqn.1994-05.com.example:host2";
    static final String INI3 = "iqn.1994-05.com.example:host3";

    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final RecordingFabric.Manual exec = new RecordingFabric.Manual();
    final TargetCoreImpl core = new TargetCoreImpl(exec);
    final Tpg tpg = core.addTpg("iscsi", IQN, 1, 5);
    final ScsiDevice ram = device(new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS);
    /** The fabric of the session opened last. */
    RecordingFabric fabric;
    private long nextTag = 1;

    CoreFixture() {
        tpg.addLun(0, ram);
        tpg.setGenerateNodeAcls(true);
        tpg.setDemoModeWriteProtect(false);
    }

    static ScsiDevice device(Backstore b, DeviceAttributes a) {
        return new ScsiDevice("d", b, a, DeviceIdentity.of(DeviceIdentity.defaultSerial(b.type(), "d"), DeviceIdentity.DEFAULT_COMPANY_ID));
    }

    FabricSession login(String initiator) {
        return login(initiator, "023d00000001");
    }

    /** Opens a session for an initiator port with this ISID (12 hex digits). */
    FabricSession login(String initiator, String isid) {
        fabric = new RecordingFabric(events);
        return tpg.openSession(initiator, initiator + ",i,0x" + isid, fabric);
    }

    /** Opens a session and takes its power-on unit attention on LUN 0. */
    FabricSession loginReady(String initiator) {
        FabricSession s = login(initiator);
        run(s, 0, org.rdma.scsi.Cdb.testUnitReady(), 0, null);
        return s;
    }

    static RecordingFabric fabricOf(FabricSession s) {
        return (RecordingFabric) ((Session) s).ops;
    }

    /** Submits without draining the executor; data-out, if any, is supplied when asked for. */
    void submit(FabricSession s, int lun, byte[] cdb, long tag, TaskAttribute attr, int edtl, byte[] data) {
        RecordingFabric f = fabricOf(s);
        if (data != null) {
            f.writeData.put(tag, data);
        }
        s.submit(Lun.encode(lun), cdb, tag, attr, edtl, data != null ? DataDirection.DATA_OUT
                : edtl > 0 ? DataDirection.DATA_IN : DataDirection.NONE);
    }

    /** Submits, drains the executor, and returns the outcome. */
    RecordingFabric.Outcome run(FabricSession s, int lun, byte[] cdb, int edtl, byte[] data) {
        long tag = nextTag++;
        submit(s, lun, cdb, tag, TaskAttribute.SIMPLE, edtl, data);
        exec.drain();
        return fabricOf(s).outcomes.get(tag);
    }

    static void assertSense(RecordingFabric.Outcome o, SenseKey key, Asc asc) {
        assertEquals(ScsiStatus.CHECK_CONDITION, o.cmd().status());
        assertEquals(key, o.sense().key(), o.sense().toString());
        assertEquals(asc, o.sense().asc(), o.sense().toString());
    }

    static void assertGood(RecordingFabric.Outcome o) {
        assertEquals(ScsiStatus.GOOD, o.cmd().status(), () -> String.valueOf(o.sense()));
    }
}
