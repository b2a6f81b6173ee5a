package org.rdma.verbs;

/**
 * A work completion: {@code struct ib_wc}. Callers supply arrays of these to
 * {@link IbCq#pollCq}; the driver overwrites every field it defines for the completion.
 */
public final class Wc {
    /** {@code wr_id}. */
    public long wrId;
    /** {@code wr_cqe}. */
    public IbCqe wrCqe;
    /** {@code status}. */
    public WcStatus status = WcStatus.SUCCESS;
    /** {@code opcode}. */
    public WcOpcode opcode = WcOpcode.SEND;
    /** {@code vendor_err}. */
    public int vendorErr;
    /** {@code byte_len}. */
    public int byteLen;
    /** {@code qp}. */
    public IbQp qp;
    /** {@code ex.imm_data}. */
    public int immData;
    /** {@code ex.invalidate_rkey}. */
    public int invalidateRkey;
    /** {@code src_qp}. */
    public int srcQp;
    /** {@code slid}. */
    public int slid;
    /** {@code wc_flags}: {@link WcFlags} bits. */
    public int wcFlags;
    /** {@code pkey_index}. */
    public int pkeyIndex;
    /** {@code sl}. */
    public int sl;
    /** {@code dlid_path_bits}. */
    public int dlidPathBits;
    /** {@code port_num}. */
    public int portNum;
    /** {@code smac}. */
    public final byte[] smac = new byte[6];
    /** {@code vlan_id}. */
    public int vlanId;
    /** {@code network_hdr_type}. */
    public int networkHdrType;

    /** Resets every field, for drivers that fill only some. */
    public void clear() {
        wrId = 0;
        wrCqe = null;
        status = WcStatus.SUCCESS;
        opcode = WcOpcode.SEND;
        vendorErr = 0;
        byteLen = 0;
        qp = null;
        immData = 0;
        invalidateRkey = 0;
        srcQp = 0;
        slid = 0;
        wcFlags = 0;
        pkeyIndex = 0;
        sl = 0;
        dlidPathBits = 0;
        portNum = 0;
        java.util.Arrays.fill(smac, (byte) 0);
        vlanId = 0;
        networkHdrType = 0;
    }

    /** Copies every field from {@code src} (the core uses it to move completions between rings). */
    public void copyFrom(Wc src) {
        wrId = src.wrId;
        wrCqe = src.wrCqe;
        status = src.status;
        opcode = src.opcode;
        vendorErr = src.vendorErr;
        byteLen = src.byteLen;
        qp = src.qp;
        immData = src.immData;
        invalidateRkey = src.invalidateRkey;
        srcQp = src.srcQp;
        slid = src.slid;
        wcFlags = src.wcFlags;
        pkeyIndex = src.pkeyIndex;
        sl = src.sl;
        dlidPathBits = src.dlidPathBits;
        portNum = src.portNum;
        System.arraycopy(src.smac, 0, smac, 0, 6);
        vlanId = src.vlanId;
        networkHdrType = src.networkHdrType;
    }

    /** A new array of {@code n} completions, for {@link IbCq#pollCq}. */
    public static Wc[] array(int n) {
        Wc[] a = new Wc[n];
        for (int i = 0; i < n; i++) {
            a[i] = new Wc();
        }
        return a;
    }

    @Override
    public String toString() {
        return "Wc[wr_id=" + wrId + " status=" + status + " opcode=" + opcode + " byte_len=" + byteLen
                + " qp=" + (qp == null ? "-" : qp.qpNum()) + "]";
    }
}
