package org.rdma.iscsi.internal.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.Pdu;
import org.rdma.iscsi.pdu.PduReader;
import org.rdma.iscsi.pdu.PduWriter;
import org.rdma.iscsi.pdu.ReadResult;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Lun;

/**
 * A blocking initiator over TCP for transport tests, built on the PDU codec: it logs in (no
 * authentication; ImmediateData=Yes, InitialR2T=Yes, so writes up to FirstBurstLength go as
 * immediate data), sends commands and reads what comes back.
 */
final class TcpInitiator implements AutoCloseable {
    private final SocketChannel ch;
    private final PduWriter writer = new PduWriter();
    private final PduReader reader = PduReader.forInitiator();
    private final ByteBuffer in = ByteBuffer.allocate(1 << 20).flip();
    private final ByteBuffer out = ByteBuffer.allocate(1 << 20);
    int cmdSn;
    int expStatSn;
    int nextItt = 1;

    TcpInitiator(InetSocketAddress portal) throws IOException {
        ch = SocketChannel.open(portal);
        reader.setMaxRecvDataSegmentLength(PduReader.MAX_DATA_SEGMENT_LENGTH);
    }

    /** Logs in to {@code target} as {@code name} with ISID {@code isid}; digests both ways when asked. */
    void login(String target, String name, long isid, boolean digests) throws IOException {
        String d = digests ? "CRC32C" : "None";
        Pdu r = loginStep(isid, 0, 1, "InitiatorName=" + name, "TargetName=" + target, "SessionType=Normal",
                "AuthMethod=None");
        assertEquals(1, r.bhs().nsg());
        r = loginStep(isid, 1, 3, "HeaderDigest=" + d, "DataDigest=" + d, "MaxRecvDataSegmentLength=262144",
                "InitialR2T=Yes", "ImmediateData=Yes", "MaxBurstLength=262144", "FirstBurstLength=65536",
                "ErrorRecoveryLevel=0", "MaxOutstandingR2T=1", "MaxConnections=1", "DefaultTime2Retain=0");
        assertEquals(3, r.bhs().nsg());
        cmdSn = r.bhs().expCmdSn();
        writer.setDigests(digests, digests);
        reader.setDigests(digests, digests);
        // The first command of a nexus meets POWER ON, RESET, OR BUS DEVICE RESET OCCURRED.
        int itt = nextItt++;
        int sn = cmdSn++;
        byte[] tur = Cdb.testUnitReady();
        send(Opcode.SCSI_COMMAND, b -> b.itt(itt).cmdSn(sn).expStatSn(expStatSn).finalBit(true).cdb(tur, 0, 6), null);
        assertEquals(Opcode.SCSI_RESPONSE, read().opcode());
    }

    private Pdu loginStep(long isid, int csg, int nsg, String... keys) throws IOException {
        byte[] text = (String.join("\0", keys) + "\0").getBytes(StandardCharsets.UTF_8);
        send(Opcode.LOGIN_REQUEST, b -> b.transit(true).csg(csg).nsg(nsg).isid(isid).itt(0).cid(0).cmdSn(cmdSn)
                .expStatSn(expStatSn), text);
        Pdu r = read();
        assertEquals(Opcode.LOGIN_RESPONSE, r.opcode());
        assertEquals(0, r.bhs().statusClass(), () -> "login refused: " + r.bhs().statusClass() + "/" + r.bhs().statusDetail());
        expStatSn = r.bhs().statSn() + 1;
        return r;
    }

    void send(Opcode op, java.util.function.Consumer<Bhs> fill, byte[] data) throws IOException {
        out.clear();
        Bhs h = writer.begin(out, op);
        fill.accept(h);
        writer.finish(data == null || data.length == 0 ? null : ByteBuffer.wrap(data));
        out.flip();
        while (out.hasRemaining()) {
            ch.write(out);
        }
    }

    /** Writes {@code data} at {@code lba} (512-byte blocks) as immediate data; does not wait. */
    int sendWrite(long lba, byte[] data) throws IOException {
        int itt = nextItt++;
        int sn = cmdSn++;
        byte[] cdb = Cdb.write10(lba, data.length / 512, 0);
        send(Opcode.SCSI_COMMAND, b -> b.itt(itt).cmdSn(sn).expStatSn(expStatSn).lun(Lun.encode(0)).write(true)
                .finalBit(true).attr(1).expectedDataTransferLength(data.length).cdb(cdb, 0, cdb.length), data);
        return itt;
    }

    /** Asks for {@code blocks} at {@code lba}; does not wait. */
    int sendRead(long lba, int blocks) throws IOException {
        int itt = nextItt++;
        int sn = cmdSn++;
        byte[] cdb = Cdb.read10(lba, blocks, 0);
        send(Opcode.SCSI_COMMAND, b -> b.itt(itt).cmdSn(sn).expStatSn(expStatSn).lun(Lun.encode(0)).read(true)
                .finalBit(true).attr(1).expectedDataTransferLength(blocks * 512).cdb(cdb, 0, cdb.length), null);
        return itt;
    }

    void write(long lba, byte[] data) throws IOException {
        int itt = sendWrite(lba, data);
        Pdu r = read();
        assertEquals(Opcode.SCSI_RESPONSE, r.opcode(), () -> r.bhs().toString());
        assertEquals(itt, r.bhs().itt());
        assertEquals(0, r.bhs().status(), "write status");
    }

    byte[] read(long lba, int blocks) throws IOException {
        return collect(sendRead(lba, blocks), blocks * 512);
    }

    /** The data of READ {@code itt}, its Data-In PDUs read up to the one with status. */
    byte[] collect(int itt, int length) throws IOException {
        return collect(new int[] {itt}, length).get(itt);
    }

    /** The data of several READs of {@code length} bytes each, whose Data-In PDUs may interleave. */
    java.util.Map<Integer, byte[]> collect(int[] itts, int length) throws IOException {
        java.util.Map<Integer, byte[]> data = new java.util.HashMap<>();
        for (int itt : itts) {
            data.put(itt, new byte[length]);
        }
        int open = itts.length;
        while (open > 0) {
            Pdu p = read();
            if (p.opcode() != Opcode.SCSI_DATA_IN || !data.containsKey(p.bhs().itt())) {
                fail("expected Data-In of one of " + java.util.Arrays.toString(itts) + ", got " + p.bhs());
            }
            System.arraycopy(p.data(), 0, data.get(p.bhs().itt()), p.bhs().bufferOffset(), p.data().length);
            if (p.bhs().statusPresent()) {
                assertEquals(0, p.bhs().status());
                expStatSn = p.bhs().statSn() + 1;
                open--;
            }
        }
        return data;
    }

    void logout() throws IOException {
        int sn = cmdSn;
        send(Opcode.LOGOUT_REQUEST, b -> b.immediate(true).reasonCode(0).itt(0x7fff).cmdSn(sn).expStatSn(expStatSn), null);
        Pdu r = read();
        assertEquals(Opcode.LOGOUT_RESPONSE, r.opcode());
        assertEquals(0, r.bhs().response());
    }

    /** The next PDU; fails on end of stream or anything the reader finds wrong. */
    Pdu read() throws IOException {
        while (true) {
            if (in.hasRemaining()) {
                ReadResult r = reader.read(in);
                if (r == ReadResult.PDU) {
                    Pdu p = reader.copyPdu();
                    if (p.opcode() == Opcode.SCSI_RESPONSE || p.opcode() == Opcode.NOP_IN && p.bhs().itt() != -1) {
                        expStatSn = p.bhs().statSn() + 1;
                    }
                    return p;
                }
                if (r != ReadResult.NEED_MORE) {
                    fail("the target sent something its reader calls " + r);
                }
            }
            in.compact();
            int n = ch.read(in);
            in.flip();
            if (n < 0) {
                fail("the target closed the connection");
            }
        }
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
