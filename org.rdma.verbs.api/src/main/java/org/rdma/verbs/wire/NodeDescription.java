package org.rdma.verbs.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The NodeDescription SMP attribute (IBTA vol. 1, 14.2.5.2), attribute ID
 * {@link Smp#IB_SMP_ATTR_NODE_DESC}: a 64-byte UTF-8 string, NUL padded (the kernel's
 * {@code IB_DEVICE_NODE_DESC_MAX}).
 */
public final class NodeDescription implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_NODE_DESC;
    /** Size on the wire ({@code IB_DEVICE_NODE_DESC_MAX}). */
    public static final int BYTES = 64;

    /** The node string, {@link #BYTES} bytes of UTF-8, padded with NULs. */
    public byte[] nodeString = new byte[BYTES];

    /** The field table. */
    public static final List<IbField<NodeDescription>> TABLE = List.of(
            IbField.bytes("node_desc:node_string", 0, 0, BYTES * 8, a -> a.nodeString, (a, v) -> a.nodeString = v));

    /** Creates an empty description. */
    public NodeDescription() {
    }

    /**
     * @param text the description
     * @return a description holding {@code text}
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if its UTF-8 form exceeds 64 bytes
     */
    public static NodeDescription of(String text) {
        return new NodeDescription().setText(text);
    }

    /**
     * Stores {@code text} as UTF-8, padded with NULs.
     *
     * @param text the description
     * @return this attribute
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if its UTF-8 form exceeds 64 bytes
     */
    public NodeDescription setText(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > BYTES) {
            throw IbFieldTables.einval("a node description has at most " + BYTES + " UTF-8 bytes, got "
                    + utf8.length);
        }
        nodeString = Arrays.copyOf(utf8, BYTES);
        return this;
    }

    /** @return the text up to the first NUL (or all 64 bytes), decoded as UTF-8 */
    public String text() {
        int n = 0;
        while (n < nodeString.length && nodeString[n] != 0) {
            n++;
        }
        return new String(nodeString, 0, n, StandardCharsets.UTF_8);
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
    public NodeDescription unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this attribute */
    public NodeDescription copy() {
        NodeDescription c = new NodeDescription();
        c.nodeString = IbFieldTables.clone(nodeString);
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof NodeDescription && Arrays.equals(nodeString, ((NodeDescription) o).nodeString));
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(nodeString);
    }

    @Override
    public String toString() {
        return "NodeDescription{" + (nodeString == null ? "null" : '"' + text() + '"') + "}";
    }
}
