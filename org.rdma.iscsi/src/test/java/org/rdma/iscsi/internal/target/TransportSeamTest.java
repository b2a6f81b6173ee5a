package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.Pdu;
import org.rdma.iscsi.text.OperationalParameters;
import org.rdma.scsi.Cdb;

/**
 * The engine behind a transport that moves data itself, as iSER does with RDMA READ and WRITE:
 * no R2T and no Data-In PDU; the data goes straight between the initiator's memory (here an
 * array) and the core's buffer, and the status comes in a SCSI Response.
 */
class TransportSeamTest {
    final Harness h = new Harness();
    final byte[] initiatorMemory = ScsiCommandTest.pattern(4096, 11);
    final List<byte[]> written = new ArrayList<>();

    /** A memory transport whose data operations play RDMA READ and RDMA WRITE. */
    final class RdmaLike extends MemoryTransport {
        RdmaLike() {
            super(Harness.PORTAL);
        }

        @Override
        public void getDataOut(TargetCmd cmd) {
            int[] range = cmd.dataOutToGet();
            cmd.fabric().dataBuffer().put(range[0], initiatorMemory, range[0], range[1] - range[0]);
            cmd.dataOutArrived(range[0], range[1] - range[0]);
        }

        @Override
        public void putDataIn(TargetCmd cmd) {
            ByteBuffer b = cmd.fabric().dataBuffer();
            byte[] d = new byte[cmd.fabric().dataLength()];
            b.get(0, d);
            written.add(d);
            cmd.dataInSent();
        }
    }

    @Test
    void writeAndReadMoveNoDataPdus() throws Exception {
        Params p = new Params();
        p.immediateData = false;
        OperationalParameters op = p.build();
        IscsiTarget.Admission a = h.target.admit(new LoginOutcome(0x4000_0000_0001L, 0, 1, Harness.INI, Harness.IQN,
                false, h.tpg, op, 1));
        RdmaLike t = new RdmaLike();
        IscsiConnection c = a.session().startConnection(1, t, op, 0x10);
        t.handler = c;
        Initiator i = new Initiator(c, t, 1, 0x10);
        i.command(Cdb.testUnitReady(), 0);
        i.received();
        int w = i.command(Cdb.write10(24, 8, 0), 4096, false, true, true, null);
        Pdu status = i.next(Opcode.SCSI_RESPONSE);
        assertEquals(w, status.bhs().itt());
        assertEquals(0, status.bhs().status());
        ByteBuffer back = ByteBuffer.allocate(4096);
        h.disk.read(24, back);
        assertArrayEquals(initiatorMemory, back.array());
        int r = i.command(Cdb.read10(24, 2, 0), 1024);
        Bhs s = i.next(Opcode.SCSI_RESPONSE).bhs();
        assertEquals(r, s.itt());
        assertEquals(0, s.status());
        assertEquals(0, s.expDataSn(), "no Data-In PDU was sent");
        assertArrayEquals(Arrays.copyOf(initiatorMemory, 1024), written.get(0));
        i.nothingMore();
        assertFalse(t.closed);
    }
}
