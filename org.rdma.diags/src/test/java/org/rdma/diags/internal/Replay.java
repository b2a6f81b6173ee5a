package org.rdma.diags.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.rdma.mad.umad.UmadAddr;
import org.rdma.mad.umad.UmadCa;
import org.rdma.mad.umad.UmadPort;
import org.rdma.mad.umad.UmadPortAttr;
import org.rdma.mad.umad.UmadRegAttr;
import org.rdma.mad.umad.UmadService;
import org.rdma.mad.umad.UserMad;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/**
 * A user-MAD service that answers each MAD sent with the next MAD a real tool received (a sample
 * of src/test/resources/samples), its TID set to the request's, and records what was sent. The
 * local CA is ibsim's {@code ibsim0} port 1 at LID 5 with the SM at LID 1, as in the samples.
 */
final class Replay implements UmadService {
    /** ibsim's CA of the samples (ibstat*.txt). */
    static final UmadPortAttr PORT = new UmadPortAttr("ibsim0", 1, 5, 0, 1, 0, 4, 5, 10, 0x0050c048,
            Gid.DEFAULT_SUBNET_PREFIX, 0x100003L, List.of(0xffff), "IB");
    static final UmadCa CA = new UmadCa("ibsim0", 1, 1, "1", "simulator", "a1", 0x100002L, 0x100002L, List.of(PORT));

    private final ArrayDeque<byte[]> replies;
    final List<byte[]> sent = new ArrayList<>();

    Replay(List<byte[]> replies) {
        this.replies = new ArrayDeque<>(replies);
    }

    /** A replay of sample {@code name}'s received MADs. */
    static Replay of(String name) {
        return new Replay(mads(name + ".mad"));
    }

    /** A sample's text lines. */
    static List<String> text(String name) {
        return read(name).lines().toList();
    }

    /** The MADs of a {@code .mad} or {@code .req} sample, each after a {@code --} line. */
    static List<byte[]> mads(String file) {
        List<byte[]> out = new ArrayList<>();
        StringBuilder hex = null;
        for (String line : read(file).split("\n")) {
            if (line.equals("--")) {
                if (hex != null) {
                    out.add(bytes(hex));
                }
                hex = new StringBuilder();
            } else if (hex != null) {
                hex.append(line.replace(" ", ""));
            }
        }
        if (hex != null) {
            out.add(bytes(hex));
        }
        return out;
    }

    private static byte[] bytes(CharSequence hex) {
        byte[] b = new byte[hex.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(hex.subSequence(2 * i, 2 * i + 2).toString(), 16);
        }
        return b;
    }

    static String read(String name) {
        try (InputStream in = Replay.class.getResourceAsStream("/samples/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no sample " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public List<String> getCasNames() {
        return List.of(CA.caName());
    }

    @Override
    public UmadCa getCa(String caName) {
        RdmaException.check(caName == null || caName.equals(CA.caName()), Errno.ENODEV, "no CA " + caName);
        return CA;
    }

    @Override
    public UmadPortAttr getPort(String caName, int portNum) {
        getCa(caName);
        RdmaException.check(portNum == 0 || portNum == 1, Errno.EINVAL, "no port " + portNum);
        return PORT;
    }

    @Override
    public long[] getCaPortguids(String caName) {
        getCa(caName);
        return new long[] {0, PORT.portGuid()};
    }

    @Override
    public UmadPort openPort(String caName, int portNum) {
        getPort(caName, portNum);
        return new UmadPort() {
            private final ArrayDeque<UserMad> in = new ArrayDeque<>();
            private int agents;

            @Override
            public String caName() {
                return CA.caName();
            }

            @Override
            public int portNum() {
                return 1;
            }

            @Override
            public int register(int mgmtClass, int mgmtVersion, int rmppVersion, BitSet methodMask) {
                return agents++;
            }

            @Override
            public int registerOui(int mgmtClass, int rmppVersion, int oui, BitSet methodMask) {
                return agents++;
            }

            @Override
            public int register2(UmadRegAttr attr) {
                return agents++;
            }

            @Override
            public void unregister(int agentId) {
            }

            @Override
            public long send(int agentId, UmadAddr addr, byte[] mad, int length, int timeoutMs, int retries) {
                byte[] m = java.util.Arrays.copyOf(mad, length);
                long tid = 1L << 32 | (m[12] & 0xffL) << 24 | (m[13] & 0xff) << 16 | (m[14] & 0xff) << 8 | m[15] & 0xff;
                for (int i = 0; i < 8; i++) {
                    m[8 + i] = (byte) (tid >>> (56 - 8 * i));
                }
                sent.add(m);
                byte[] r = replies.poll();
                if (r != null) {
                    byte[] reply = r.clone();
                    System.arraycopy(m, 8, reply, 8, 8);
                    in.add(new UserMad(agentId, 0, addr, reply));
                } else {
                    in.add(new UserMad(agentId, Errno.ETIMEDOUT.value, addr, java.util.Arrays.copyOf(m, 24)));
                }
                return tid;
            }

            @Override
            public UserMad recv(int timeoutMs) {
                UserMad m = in.poll();
                if (m == null) {
                    throw new RdmaException(Errno.ETIMEDOUT, "nothing to replay");
                }
                return m;
            }

            @Override
            public boolean poll(int timeoutMs) {
                return !in.isEmpty();
            }

            @Override
            public void close() {
            }
        };
    }
}
