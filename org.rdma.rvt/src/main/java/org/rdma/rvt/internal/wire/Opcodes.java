package org.rdma.rvt.internal.wire;

/**
 * The one opcode table of the transport (IBTA vol. 1, 9.2 and table 38): for each of the 256 BTH
 * opcodes its name, a mask of the headers it carries and what it means, its header length and the
 * offset of each extension header. Code asks capability bits ({@link #has}), never switches on
 * opcodes.
 *
 * <p>The table is built from two small descriptions: per transport (RC, UC, RD, UD) which of the
 * 32 operation codes exist, and per operation code its headers and meaning. Unknown opcodes have
 * mask 0 and are dropped on receive.
 */
public final class Opcodes {
    private Opcodes() {
    }

    // ---------------------------------------------------------------- header bits
    /** Reliable Datagram Extended Transport Header, 4 bytes. */
    public static final int RDETH = 1;
    /** Datagram Extended Transport Header, 8 bytes. */
    public static final int DETH = 1 << 1;
    /** RDMA Extended Transport Header, 16 bytes. */
    public static final int RETH = 1 << 2;
    /** Atomic Extended Transport Header, 28 bytes. */
    public static final int ATMETH = 1 << 3;
    /** ACK Extended Transport Header, 4 bytes. */
    public static final int AETH = 1 << 4;
    /** Atomic ACK Extended Transport Header, 8 bytes. */
    public static final int ATMACK = 1 << 5;
    /** Immediate data, 4 bytes. */
    public static final int IMMDT = 1 << 6;
    /** Invalidate Extended Transport Header, 4 bytes. */
    public static final int IETH = 1 << 7;

    // ---------------------------------------------------------------- meaning bits
    /** Carries a payload. */
    public static final int PAYLOAD = 1 << 8;
    /** A request (travels to the responder). */
    public static final int REQ = 1 << 9;
    /** A response (travels to the requester's completer). */
    public static final int ACK = 1 << 10;
    /** Part of a SEND. */
    public static final int SEND = 1 << 11;
    /** Part of an RDMA WRITE. */
    public static final int WRITE = 1 << 12;
    /** An RDMA READ request. */
    public static final int READ = 1 << 13;
    /** An atomic request. */
    public static final int ATOMIC = 1 << 14;
    /** Consumes a receive WQE at the responder. */
    public static final int RWR = 1 << 15;
    /** Completes a receive WQE at the responder (generates a receive completion). */
    public static final int COMP = 1 << 16;
    /** First packet of a message. */
    public static final int START = 1 << 17;
    /** Middle packet of a message. */
    public static final int MIDDLE = 1 << 18;
    /** Last packet of a message. */
    public static final int END = 1 << 19;
    /** An RDMA READ response packet. */
    public static final int READ_RESP = 1 << 20;
    /** An atomic acknowledge. */
    public static final int ATOMIC_ACK = 1 << 21;
    /** Invalidates an rkey at the responder. */
    public static final int INV = 1 << 22;

    /** READ or ATOMIC: needs a responder resource. */
    public static final int READ_OR_ATOMIC = READ | ATOMIC;
    /** WRITE or SEND. */
    public static final int WRITE_OR_SEND = WRITE | SEND;

    // ---------------------------------------------------------------- sizes
    /** BTH bytes. */
    public static final int BTH_BYTES = 12;
    /** The largest header an opcode can have (BTH + RDETH + DETH + ATMETH). */
    public static final int MAX_HDR_BYTES = 64;

    /** Transport prefixes (top three bits). */
    public static final int RC = 0x00;
    /** UC prefix. */
    public static final int UC = 0x20;
    /** RD prefix. */
    public static final int RD = 0x40;
    /** UD prefix. */
    public static final int UD = 0x60;

    // ---------------------------------------------------------------- operation codes (low 5 bits)
    /** SEND_FIRST. */
    public static final int SEND_FIRST = 0x00;
    /** SEND_MIDDLE. */
    public static final int SEND_MIDDLE = 0x01;
    /** SEND_LAST. */
    public static final int SEND_LAST = 0x02;
    /** SEND_LAST_WITH_IMMEDIATE. */
    public static final int SEND_LAST_IMM = 0x03;
    /** SEND_ONLY. */
    public static final int SEND_ONLY = 0x04;
    /** SEND_ONLY_WITH_IMMEDIATE. */
    public static final int SEND_ONLY_IMM = 0x05;
    /** RDMA_WRITE_FIRST. */
    public static final int WRITE_FIRST = 0x06;
    /** RDMA_WRITE_MIDDLE. */
    public static final int WRITE_MIDDLE = 0x07;
    /** RDMA_WRITE_LAST. */
    public static final int WRITE_LAST = 0x08;
    /** RDMA_WRITE_LAST_WITH_IMMEDIATE. */
    public static final int WRITE_LAST_IMM = 0x09;
    /** RDMA_WRITE_ONLY. */
    public static final int WRITE_ONLY = 0x0a;
    /** RDMA_WRITE_ONLY_WITH_IMMEDIATE. */
    public static final int WRITE_ONLY_IMM = 0x0b;
    /** RDMA_READ_REQUEST. */
    public static final int READ_REQUEST = 0x0c;
    /** RDMA_READ_RESPONSE_FIRST. */
    public static final int READ_RESP_FIRST = 0x0d;
    /** RDMA_READ_RESPONSE_MIDDLE. */
    public static final int READ_RESP_MIDDLE = 0x0e;
    /** RDMA_READ_RESPONSE_LAST. */
    public static final int READ_RESP_LAST = 0x0f;
    /** RDMA_READ_RESPONSE_ONLY. */
    public static final int READ_RESP_ONLY = 0x10;
    /** ACKNOWLEDGE. */
    public static final int ACKNOWLEDGE = 0x11;
    /** ATOMIC_ACKNOWLEDGE. */
    public static final int ATOMIC_ACKNOWLEDGE = 0x12;
    /** COMPARE_SWAP. */
    public static final int COMPARE_SWAP = 0x13;
    /** FETCH_ADD. */
    public static final int FETCH_ADD = 0x14;
    /** RESYNC (RD only). */
    public static final int RESYNC = 0x15;
    /** SEND_LAST_WITH_INVALIDATE. */
    public static final int SEND_LAST_INV = 0x16;
    /** SEND_ONLY_WITH_INVALIDATE. */
    public static final int SEND_ONLY_INV = 0x17;

    /** Header kinds in wire order, for the offset table. */
    private static final int[] ORDER = {RDETH, DETH, RETH, ATMETH, AETH, ATMACK, IMMDT, IETH};
    private static final int[] SIZE = {4, 8, 16, 28, 4, 8, 4, 4};
    private static final int KINDS = ORDER.length;

    private static final String[] OP_NAMES = {
        "SEND_FIRST", "SEND_MIDDLE", "SEND_LAST", "SEND_LAST_WITH_IMMEDIATE", "SEND_ONLY",
        "SEND_ONLY_WITH_IMMEDIATE", "RDMA_WRITE_FIRST", "RDMA_WRITE_MIDDLE", "RDMA_WRITE_LAST",
        "RDMA_WRITE_LAST_WITH_IMMEDIATE", "RDMA_WRITE_ONLY", "RDMA_WRITE_ONLY_WITH_IMMEDIATE",
        "RDMA_READ_REQUEST", "RDMA_READ_RESPONSE_FIRST", "RDMA_READ_RESPONSE_MIDDLE",
        "RDMA_READ_RESPONSE_LAST", "RDMA_READ_RESPONSE_ONLY", "ACKNOWLEDGE", "ATOMIC_ACKNOWLEDGE",
        "COMPARE_SWAP", "FETCH_ADD", "RESYNC", "SEND_LAST_WITH_INVALIDATE", "SEND_ONLY_WITH_INVALIDATE",
    };

    /** Headers and meaning of each operation code, independent of the transport. */
    private static final int[] OP_MASK = {
        /* SEND_FIRST */ PAYLOAD | REQ | SEND | RWR | START,
        /* SEND_MIDDLE */ PAYLOAD | REQ | SEND | MIDDLE,
        /* SEND_LAST */ PAYLOAD | REQ | SEND | COMP | END,
        /* SEND_LAST_IMM */ IMMDT | PAYLOAD | REQ | SEND | COMP | END,
        /* SEND_ONLY */ PAYLOAD | REQ | SEND | RWR | COMP | START | END,
        /* SEND_ONLY_IMM */ IMMDT | PAYLOAD | REQ | SEND | RWR | COMP | START | END,
        /* WRITE_FIRST */ RETH | PAYLOAD | REQ | WRITE | START,
        /* WRITE_MIDDLE */ PAYLOAD | REQ | WRITE | MIDDLE,
        /* WRITE_LAST */ PAYLOAD | REQ | WRITE | END,
        /* WRITE_LAST_IMM */ IMMDT | PAYLOAD | REQ | WRITE | RWR | COMP | END,
        /* WRITE_ONLY */ RETH | PAYLOAD | REQ | WRITE | START | END,
        /* WRITE_ONLY_IMM */ RETH | IMMDT | PAYLOAD | REQ | WRITE | RWR | COMP | START | END,
        /* READ_REQUEST */ RETH | REQ | READ | START | END,
        /* READ_RESP_FIRST */ AETH | PAYLOAD | ACK | READ_RESP | START,
        /* READ_RESP_MIDDLE */ PAYLOAD | ACK | READ_RESP | MIDDLE,
        /* READ_RESP_LAST */ AETH | PAYLOAD | ACK | READ_RESP | END,
        /* READ_RESP_ONLY */ AETH | PAYLOAD | ACK | READ_RESP | START | END,
        /* ACKNOWLEDGE */ AETH | ACK | START | END,
        /* ATOMIC_ACKNOWLEDGE */ AETH | ATMACK | ACK | ATOMIC_ACK | START | END,
        /* COMPARE_SWAP */ ATMETH | REQ | ATOMIC | START | END,
        /* FETCH_ADD */ ATMETH | REQ | ATOMIC | START | END,
        /* RESYNC */ REQ | START | END,
        /* SEND_LAST_INV */ IETH | PAYLOAD | REQ | SEND | COMP | INV | END,
        /* SEND_ONLY_INV */ IETH | PAYLOAD | REQ | SEND | RWR | COMP | INV | START | END,
    };

    private static final String[] NAME = new String[256];
    private static final int[] MASK = new int[256];
    private static final int[] LENGTH = new int[256];
    private static final int[] OFFSET = new int[256 * KINDS];

    static {
        int rc = (1 << 0x18) - 1 & ~(1 << RESYNC);
        int uc = (1 << (WRITE_ONLY_IMM + 1)) - 1;
        int rd = (1 << 0x18) - 1;
        int ud = 1 << SEND_ONLY | 1 << SEND_ONLY_IMM;
        define(RC, "RC", rc, 0);
        define(UC, "UC", uc, 0);
        define(RD, "RD", rd, RDETH | DETH);
        define(UD, "UD", ud, DETH);
        NAME[0x80] = "CNP";
        NAME[0x81] = "ROCE_CNP";
        for (int op = 0; op < 256; op++) {
            if (NAME[op] == null) {
                NAME[op] = String.format("UNKNOWN_0x%02x", op);
            }
        }
    }

    private static void define(int prefix, String transport, int valid, int extra) {
        for (int code = 0; code < OP_MASK.length; code++) {
            if ((valid & 1 << code) == 0) {
                continue;
            }
            int op = prefix | code;
            int mask = OP_MASK[code] | extra;
            NAME[op] = transport + "_" + OP_NAMES[code];
            MASK[op] = mask;
            int off = BTH_BYTES;
            for (int k = 0; k < KINDS; k++) {
                if ((mask & ORDER[k]) != 0) {
                    OFFSET[op * KINDS + k] = off;
                    off += SIZE[k];
                }
            }
            LENGTH[op] = off;
        }
    }

    /** The opcode's name, e.g. {@code RC_SEND_ONLY}. */
    public static String name(int opcode) {
        return NAME[opcode & 0xff];
    }

    /** The opcode's mask: header and meaning bits; 0 for an opcode the transport does not know. */
    public static int mask(int opcode) {
        return MASK[opcode & 0xff];
    }

    /** Whether the opcode has every bit of {@code bits}. */
    public static boolean has(int opcode, int bits) {
        return (MASK[opcode & 0xff] & bits) == bits;
    }

    /** BTH plus extension headers, in bytes; the payload starts here. */
    public static int length(int opcode) {
        return LENGTH[opcode & 0xff];
    }

    /** The offset of extension header {@code header} (one of the header bits), or 0 if absent. */
    public static int offset(int opcode, int header) {
        int k = Integer.numberOfTrailingZeros(header);
        return OFFSET[(opcode & 0xff) * KINDS + k];
    }

    /** The transport prefix of an opcode ({@link #RC}, {@link #UC}, {@link #RD}, {@link #UD}). */
    public static int transport(int opcode) {
        return opcode & 0xe0;
    }
}
