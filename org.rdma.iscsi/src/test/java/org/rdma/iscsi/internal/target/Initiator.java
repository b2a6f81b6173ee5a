package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.Pdu;
import org.rdma.iscsi.pdu.PduReader;
import org.rdma.iscsi.pdu.PduWriter;
import org.rdma.iscsi.pdu.ReadResult;
import org.rdma.scsi.Lun;

/**
 * The initiator side of an engine test: it encodes PDUs with the codec's writer and passes them
 * through a target-side reader into the connection, as a transport does, and decodes what the
 * engine sent with an initiator-side reader. Sequence numbers are kept like an initiator keeps them.
 */
final class Initiator {
    final IscsiConnection conn;
    final MemoryTransport transport;
    private final PduWriter writer = new PduWriter();
    private final PduReader toTarget = PduReader.forTarget();
    private final PduReader fromTarget = PduReader.forInitiator();
    private final Deque<Pdu> inbox = new ArrayDeque<>();
    int cmdSn;
    int expStatSn;
    int nextItt = 0x10;

    Initiator(IscsiConnection conn, MemoryTransport transport, int cmdSn, int expStatSn) {
        this.conn = conn;
        this.transport = transport;
        this.cmdSn = cmdSn;
        this.expStatSn = expStatSn;
        toTarget.setMaxRecvDataSegmentLength(transport.maxRecvDataSegmentLength);
        fromTarget.setMaxRecvDataSegmentLength(PduReader.MAX_DATA_SEGMENT_LENGTH);
    }

    void digests(boolean header, boolean data) {
        writer.setDigests(header, data);
        toTarget.setDigests(header, data);
        fromTarget.setDigests(header, data);
    }

    /** Encodes one PDU; {@code fill} sets its fields. */
    ByteBuffer encode(Opcode op, Consumer<Bhs> fill, byte[] data) {
        ByteBuffer out = ByteBuffer.allocate(2048 + (data == null ? 0 : data.length));
        Bhs h = writer.begin(out, op);
        h.expStatSn(expStatSn);
        fill.accept(h);
        writer.finish(data == null || data.length == 0 ? null : ByteBuffer.wrap(data));
        return out.flip();
    }

    /** Hands bytes to the connection as its transport would, a result at a time. */
    void feed(ByteBuffer bytes) {
        while (bytes.hasRemaining()) {
            ReadResult r = toTarget.read(bytes);
            if (r == ReadResult.NEED_MORE) {
                return;
            }
            conn.receive(r, toTarget.bhs(), toTarget.ahs(), toTarget.data());
        }
    }

    void send(Opcode op, Consumer<Bhs> fill, byte[] data) {
        feed(encode(op, fill, data));
    }

    /** A SCSI Command with the next CmdSN (not immediate); returns its ITT. */
    int command(byte[] cdb, int edtl, boolean read, boolean write, boolean finalBit, byte[] immediateData) {
        int itt = nextItt++;
        int sn = cmdSn++;
        send(Opcode.SCSI_COMMAND, h -> h.itt(itt).cmdSn(sn).lun(Lun.encode(0)).expectedDataTransferLength(edtl)
                .read(read).write(write).finalBit(finalBit).attr(1).cdb(cdb, 0, cdb.length), immediateData);
        return itt;
    }

    /** A read-type or no-data command with F set. */
    int command(byte[] cdb, int edtl) {
        return command(cdb, edtl, edtl > 0, false, true, null);
    }

    void dataOut(int itt, int ttt, int dataSn, int offset, byte[] data, boolean finalBit) {
        send(Opcode.SCSI_DATA_OUT, h -> h.itt(itt).ttt(ttt).dataSn(dataSn).bufferOffset(offset).finalBit(finalBit)
                .lun(Lun.encode(0)), data);
    }

    /** Decodes whatever the target sent since the last call into the inbox. */
    private void pull() {
        ByteBuffer b = ByteBuffer.wrap(transport.take());
        while (b.hasRemaining()) {
            ReadResult r = fromTarget.read(b);
            if (r != ReadResult.PDU) {
                fail("the target sent something its reader calls " + r + " after " + inbox);
            }
            inbox.add(fromTarget.copyPdu());
        }
    }

    /** Every PDU the target sent, in order, since the last call. */
    List<Pdu> received() {
        pull();
        List<Pdu> all = new ArrayList<>(inbox);
        inbox.clear();
        all.forEach(this::track);
        return all;
    }

    /** The next PDU the target sent, which must be of {@code op}. */
    Pdu next(Opcode op) {
        pull();
        Pdu p = inbox.poll();
        if (p == null) {
            fail("the target sent nothing; expected " + op);
        }
        assertEquals(op, p.opcode(), () -> "got " + p.bhs());
        track(p);
        return p;
    }

    /** Asserts the target sent nothing more. */
    void nothingMore() {
        pull();
        assertTrue(inbox.isEmpty(), () -> "unexpected " + inbox.peek().bhs());
    }

    private void track(Pdu p) {
        Bhs h = p.bhs();
        boolean hasStatus = p.opcode() != Opcode.SCSI_DATA_IN || h.statusPresent();
        if (hasStatus && p.opcode() != Opcode.READY_TO_TRANSFER
                && !(p.opcode() == Opcode.NOP_IN && h.itt() == Bhs.RESERVED_TAG)) {
            expStatSn = h.statSn() + 1;
        }
    }
}
