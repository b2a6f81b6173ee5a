package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Lun;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.internal.backstore.Backstore;
import org.rdma.target.internal.backstore.RamdiskBackstore;
import org.rdma.target.internal.device.DeviceAttributes;
import org.rdma.target.internal.device.DeviceIdentity;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * Runs commands through the emulation as the core does (parse, buffer, execute) on one device
 * and a recording nexus, and checks their outcome.
 */
final class Harness implements Nexus {
    static final TargetPort PORT = new TargetPort(5, "iqn.2003-01.org.example:t1", "iqn.2003-01.org.example:t1,t,0x0001", 1);
    static final String SERIAL = "0123456789abcdef0123456789abcdef";

    final ScsiDevice dev;
    final Deque<Sense> unitAttentions = new ArrayDeque<>();
    final List<String> events;
    long[] luns = {Lun.encode(0), Lun.encode(3)};

    Harness(ScsiDevice dev) {
        this(dev, java.util.Collections.synchronizedList(new ArrayList<>()));
    }

    /** A harness that logs statuses into {@code events}, beside what a recording backstore logs there. */
    Harness(ScsiDevice dev, List<String> events) {
        this.dev = dev;
        this.events = events;
    }

    static Harness ramdisk(long blocks, int blockSize, DeviceAttributes attrs) {
        return new Harness(device(new RamdiskBackstore(blocks * blockSize, blockSize), attrs));
    }

    static ScsiDevice device(Backstore store, DeviceAttributes attrs) {
        return new ScsiDevice("disk0", store, attrs, DeviceIdentity.of(SERIAL, DeviceIdentity.DEFAULT_COMPANY_ID));
    }

    /** The outcome of one command: the sense of a CHECK CONDITION (else null) and the data-in. */
    record Result(Sense sense, byte[] data, DataDirection dir) {
        Result good() {
            assertNull(sense, () -> "expected GOOD, got CHECK CONDITION " + sense);
            return this;
        }
    }

    Result run(byte[] cdb) {
        return run(cdb, new byte[0]);
    }

    Result run(byte[] cdb, byte[] dataOut) {
        Cmd c = new Cmd(cdb, dev, this);
        try {
            CommandTable.parse(c);
            c.setData(ByteBuffer.allocate(c.length()));
            if (c.direction() == DataDirection.DATA_OUT) {
                c.data().put(Arrays.copyOf(dataOut, c.length())).flip();
            }
            c.exec().execute(c);
            events.add("status GOOD");
            byte[] in = new byte[c.dataInLength()];
            c.data().duplicate().clear().get(in);
            return new Result(null, in, c.direction());
        } catch (ScsiException e) {
            events.add("status CHECK CONDITION");
            assertNotNull(e.sense());
            return new Result(e.sense(), new byte[0], c.direction());
        }
    }

    /** Asserts CHECK CONDITION with this key and code. */
    Sense expect(SenseKey key, Asc asc, byte[] cdb, byte[] dataOut) {
        Result r = run(cdb, dataOut);
        assertNotNull(r.sense(), "expected CHECK CONDITION " + key + "/" + asc);
        assertEquals(key, r.sense().key(), r.sense().toString());
        assertEquals(asc, r.sense().asc(), r.sense().toString());
        return r.sense();
    }

    Sense expect(SenseKey key, Asc asc, byte[] cdb) {
        return expect(key, asc, cdb, new byte[0]);
    }

    /** Asserts INVALID FIELD IN CDB pointing at this byte and bit. */
    void expectInvalidField(byte[] cdb, int byteOffset, int bit) {
        Sense s = expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_CDB, cdb);
        assertEquals(Sense.invalidFieldInCdb(byteOffset, bit), s);
    }

    @Override
    public TargetPort port() {
        return PORT;
    }

    @Override
    public long[] reportLuns() {
        return luns;
    }

    @Override
    public Sense takeUnitAttention() {
        return unitAttentions.poll();
    }

    @Override
    public void modeParametersChanged() {
        events.add("mode parameters changed");
    }
}
