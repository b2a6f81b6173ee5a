package org.rdma.mad.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.mad.internal.umad.UmadLayer;
import org.rdma.mad.internal.umad.UmadWaiter;
import org.rdma.mad.sa.SaMad;
import org.rdma.mad.umad.UmadAddr;
import org.rdma.mad.umad.UmadPort;
import org.rdma.mad.umad.UmadRegAttr;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.MadHdr;

/**
 * The user-MAD API the diagnostic tools write through ({@code umad_register2()} and
 * {@code umad_send()}, ib_umad's {@code ib_umad_reg_agent2()} and {@code ib_umad_write()}) with
 * an arbitrary registration, address, length, timeout and MAD: each call either works or fails
 * with an {@link RdmaException} naming the errno, and once the port is closed the device holds
 * no more resources (address handles above all) than before.
 */
class UmadFuzzTest {
    /** Registration (23 bytes), agent choice, address (35 bytes), length, timeout, retries; then the MAD. */
    static final int HEADER = 65;
    static final int VENDOR_OUI = 0x001405;

    static Net net;
    static UmadLayer umad;
    static CoreDevice a;

    @BeforeAll
    static void up() {
        net = new Net("A", "B");
        net.bringUp("A", "B");
        umad = new UmadLayer(net.mad, net.clock, UmadWaiter.driving(net.clock, net::settle));
        assertEquals(0, umad.add(net.dev("A")));
        assertEquals(0, umad.add(net.dev("B")));
        a = net.dev("A");
    }

    @AfterAll
    static void down() {
        umad.deactivate();
        net.close();
    }

    @FuzzTest
    void write(byte[] input) {
        ByteBuffer in = ByteBuffer.wrap(Arrays.copyOf(input, Math.max(input.length, HEADER)));
        Map<String, Integer> resources = a.restrack().counts();
        try (UmadPort port = umad.openPort(a.name(), 1)) {
            int[] agents = {
                -1,
                port.register(MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1, 0, null),
                port.register(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, 0, methods(MadHdr.IB_MGMT_METHOD_GET)),
                port.register(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION, UmadPort.RMPP_VERSION, null),
                port.register2(new UmadRegAttr(MadHdr.IB_MGMT_CLASS_VENDOR_RANGE2_START, 1,
                        UmadRegAttr.UMAD_USER_RMPP, null, VENDOR_OUI, UmadPort.RMPP_VERSION)),
            };
            int cls = in.get() & 0xff;
            int version = in.get() & 0xff;
            int flags = in.get() & 0xff;
            int rmpp = in.get() & 0xff;
            int oui = u24(in);
            byte[] mask = new byte[16];
            in.get(mask);
            try {
                agents[0] = port.register2(new UmadRegAttr(cls, version, flags, BitSet.valueOf(mask), oui, rmpp));
            } catch (RdmaException e) {
                // the documented answer to a bad registration
            }
            int agent = agents[(in.get() & 0xff) % agents.length];
            try {
                UmadAddr addr = new UmadAddr(u24(in), in.getInt(), in.getShort() & 0xffff, in.get() & 0xff,
                        in.get() & 0xff, (in.get() & 1) != 0, in.get() & 0xff, in.get() & 0xff, in.get() & 0xff,
                        gid(in), u24(in), in.getShort() & 0xffff);
                int length = in.getShort() & 0xffff;
                int timeoutMs = in.getShort() & 0xffff;
                int retries = in.get() & 0xff;
                byte[] mad = Arrays.copyOfRange(input, Math.min(HEADER, input.length), input.length);
                port.send(agent, addr, mad, length, timeoutMs, retries);
            } catch (RdmaException e) {
                // EINVAL, EIO: the errors umad_send() documents
            }
            net.settle();
        }
        net.settle();
        assertEquals(resources, a.restrack().counts(), "resources left behind by user MAD writes");
    }

    private static BitSet methods(int... m) {
        BitSet b = new BitSet();
        for (int x : m) {
            b.set(x);
        }
        return b;
    }

    private static int u24(ByteBuffer in) {
        return (in.get() & 0xff) << 16 | (in.getShort() & 0xffff);
    }

    private static Gid gid(ByteBuffer in) {
        byte[] g = new byte[16];
        in.get(g);
        return Gid.of(g);
    }
}
