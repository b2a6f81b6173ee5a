package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The SMInfo SMP attribute (IBTA vol. 1, 14.2.5.13), attribute ID {@link Smp#IB_SMP_ATTR_SM_INFO}:
 * 21 bytes of fields, padded to 24 (as python-rdma's spec-derived {@code SMPSMInfo}).
 *
 * <p>Mirrors opensm's {@code ib_sm_info_t} (include/iba/ib_types.h), whose {@code pri_state}
 * byte is split into {@link #priority} and {@link #smState}.
 *
 * <pre>
 *  words 0-1:  GUID(64)
 *  words 2-3:  SM_Key(64)
 *  word 4:     ActCount(32)
 *  word 5:     Priority(4) SMState(4) | rsv(24)
 * </pre>
 */
public final class SmInfo implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_SM_INFO;
    /** Size on the wire, padding included. */
    public static final int BYTES = 24;

    /** SMState: not active. */
    public static final int SM_STATE_NOT_ACTIVE = 0;
    /** SMState: discovering. */
    public static final int SM_STATE_DISCOVERING = 1;
    /** SMState: standby. */
    public static final int SM_STATE_STANDBY = 2;
    /** SMState: master. */
    public static final int SM_STATE_MASTER = 3;

    /** SubnSet(SMInfo) attribute modifier: HANDOVER. */
    public static final int ATTR_MOD_HANDOVER = 1;
    /** SubnSet(SMInfo) attribute modifier: ACKNOWLEDGE. */
    public static final int ATTR_MOD_ACKNOWLEDGE = 2;
    /** SubnSet(SMInfo) attribute modifier: DISABLE. */
    public static final int ATTR_MOD_DISABLE = 3;
    /** SubnSet(SMInfo) attribute modifier: STANDBY. */
    public static final int ATTR_MOD_STANDBY = 4;
    /** SubnSet(SMInfo) attribute modifier: DISCOVER. */
    public static final int ATTR_MOD_DISCOVER = 5;

    /** Port GUID of the SM, 64 bits. */
    public long guid;
    /** SM_Key, 64 bits. */
    public long smKey;
    /** Activity counter, 32 bits (held as a signed {@code int} with the same bit pattern). */
    public int actCount;
    /** Priority, 4 bits. */
    public int priority;
    /** SM state, 4 bits ({@code SM_STATE_*}). */
    public int smState;

    /** The field table. */
    public static final List<IbField<SmInfo>> TABLE = List.of(
            IbField.of("sm_info:guid", 0, 0, 64, a -> a.guid, (a, v) -> a.guid = v),
            IbField.of("sm_info:sm_key", 2, 0, 64, a -> a.smKey, (a, v) -> a.smKey = v),
            IbField.of("sm_info:act_count", 4, 0, 32, a -> a.actCount & 0xFFFF_FFFFL, (a, v) -> a.actCount = (int) v),
            IbField.of("sm_info:priority", 5, 0, 4, a -> a.priority, (a, v) -> a.priority = (int) v),
            IbField.of("sm_info:sm_state", 5, 4, 4, a -> a.smState, (a, v) -> a.smState = (int) v),
            IbField.reserved(5, 8, 24));

    /** Creates an all-zero attribute. */
    public SmInfo() {
    }

    @Override
    public int attrId() {
        return ATTR_ID;
    }

    @Override
    public int byteLength() {
        return BYTES;
    }

    @Override
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return BYTES;
    }

    /**
     * Unpacks this attribute with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this attribute
     */
    public SmInfo unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this attribute */
    public SmInfo copy() {
        SmInfo c = new SmInfo();
        c.guid = guid;
        c.smKey = smKey;
        c.actCount = actCount;
        c.priority = priority;
        c.smState = smState;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SmInfo)) {
            return false;
        }
        SmInfo a = (SmInfo) o;
        return guid == a.guid && smKey == a.smKey && actCount == a.actCount && priority == a.priority
                && smState == a.smState;
    }

    @Override
    public int hashCode() {
        return Objects.hash(guid, smKey, actCount, priority, smState);
    }

    @Override
    public String toString() {
        return String.format("SmInfo{guid=0x%016x, smKey=0x%016x, actCount=%d, priority=%d, smState=%d}",
                guid, smKey, actCount & 0xFFFF_FFFFL, priority, smState);
    }
}
