package org.rdma.verbs;

import java.util.Arrays;

/**
 * An address vector: {@code struct rdma_ah_attr} with its IB ({@code ib_ah_attr}) and RoCE
 * ({@code roce_ah_attr}) parts. The GRH holds a reference on its SGID attribute; the static
 * helpers keep that reference balanced exactly as the kernel's do.
 */
public final class AhAttr {
    /** {@code IB_AH_GRH}: the address has a GRH. */
    public static final int AH_GRH = 1;

    /** {@code type}. */
    public AhAttrType type = AhAttrType.UNDEFINED;
    /** {@code port_num}. */
    public int portNum;
    /** {@code sl}. */
    public int sl;
    /** {@code static_rate}. */
    public int staticRate;
    /** {@code ah_flags}. */
    public int ahFlags;
    /** {@code ib.dlid}. */
    public int dlid;
    /** {@code ib.src_path_bits}. */
    public int srcPathBits;
    /** {@code roce.dmac}: the destination MAC (6 bytes), resolved for RoCE. */
    public final byte[] dmac = new byte[6];
    /** {@code grh}. */
    public final GlobalRoute grh = new GlobalRoute();

    /** Whether {@link #AH_GRH} is set ({@code rdma_ah_get_ah_flags() & IB_AH_GRH}). */
    public boolean hasGrh() {
        return (ahFlags & AH_GRH) != 0;
    }

    /**
     * Fills the GRH and takes ownership of an already held {@code sgidAttr}; mirrors
     * {@code rdma_ah_set_grh()}.
     */
    public void setGrh(Gid dgid, int flowLabel, int sgidIndex, int hopLimit, int trafficClass,
            GidAttr sgidAttr) {
        ahFlags |= AH_GRH;
        grh.dgid = dgid;
        grh.flowLabel = flowLabel;
        grh.sgidIndex = sgidIndex;
        grh.hopLimit = hopLimit;
        grh.trafficClass = trafficClass;
        grh.sgidAttr = sgidAttr;
    }

    /**
     * Copies {@code src} into {@code dest}, taking a new reference on the SGID attribute;
     * mirrors {@code rdma_copy_ah_attr()}. {@code dest} must not hold a reference.
     */
    public static void copy(AhAttr dest, AhAttr src) {
        dest.copyFieldsFrom(src);
        if (dest.grh.sgidAttr != null) {
            dest.grh.sgidAttr.hold();
        }
    }

    /**
     * Releases {@code old}'s reference and copies {@code src} into it with a new reference;
     * mirrors {@code rdma_replace_ah_attr()}.
     */
    public static void replace(AhAttr old, AhAttr src) {
        destroy(old);
        copy(old, src);
    }

    /**
     * Releases {@code dest}'s reference and moves {@code src} into it; {@code src} is left
     * without a reference. Mirrors {@code rdma_move_ah_attr()}.
     */
    public static void move(AhAttr dest, AhAttr src) {
        destroy(dest);
        dest.copyFieldsFrom(src);
        src.grh.sgidAttr = null;
    }

    /** Releases the SGID reference, if any; mirrors {@code rdma_destroy_ah_attr()}. */
    public static void destroy(AhAttr attr) {
        GidAttr held = attr.grh.sgidAttr;
        if (held != null) {
            attr.grh.sgidAttr = null;
            held.put();
        }
    }

    private void copyFieldsFrom(AhAttr src) {
        type = src.type;
        portNum = src.portNum;
        sl = src.sl;
        staticRate = src.staticRate;
        ahFlags = src.ahFlags;
        dlid = src.dlid;
        srcPathBits = src.srcPathBits;
        System.arraycopy(src.dmac, 0, dmac, 0, 6);
        grh.copyFieldsFrom(src.grh);
    }

    @Override
    public String toString() {
        return "AhAttr[type=" + type + " port=" + portNum + " sl=" + sl + " dlid=0x"
                + Integer.toHexString(dlid) + (hasGrh() ? " dgid=" + grh.dgid + " sgid_index=" + grh.sgidIndex : "")
                + (type == AhAttrType.ROCE ? " dmac=" + Arrays.toString(dmac) : "") + "]";
    }
}
