package org.rdma.fabric;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A 48-bit IEEE 802 MAC address ({@code u8 dev_addr[ETH_ALEN]}), held as a {@code long}.
 * Immutable.
 */
public final class MacAddress {

    /** The broadcast address ff:ff:ff:ff:ff:ff. */
    public static final MacAddress BROADCAST = new MacAddress(0xFFFF_FFFF_FFFFL);
    /** The all-zero address. */
    public static final MacAddress ZERO = new MacAddress(0);

    private final long value;

    private MacAddress(long value) {
        this.value = value & 0xFFFF_FFFF_FFFFL;
    }

    /**
     * @param value the address in the low 48 bits
     * @return the address
     */
    public static MacAddress of(long value) {
        return new MacAddress(value);
    }

    /**
     * @param raw 6 bytes in wire order
     * @param off first byte
     * @return the address
     */
    public static MacAddress of(byte[] raw, int off) {
        long v = 0;
        for (int i = 0; i < 6; i++) {
            v = v << 8 | (raw[off + i] & 0xFF);
        }
        return new MacAddress(v);
    }

    /**
     * Parses {@code 00:02:c9:00:00:01} (colons or dashes).
     *
     * @param text the address
     * @return the address
     * @throws IllegalArgumentException if malformed
     */
    public static MacAddress parse(String text) {
        String[] parts = text.trim().split("[:-]");
        if (parts.length != 6) {
            throw new IllegalArgumentException("not a MAC address: " + text);
        }
        long v = 0;
        for (String p : parts) {
            int b = Integer.parseInt(p, 16);
            if (b < 0 || b > 255 || p.length() > 2) {
                throw new IllegalArgumentException("not a MAC address: " + text);
            }
            v = v << 8 | b;
        }
        return new MacAddress(v);
    }

    /**
     * The MAC address of an EUI-64 interface identifier, the inverse of the modified EUI-64
     * construction of RFC 4291 appendix A ({@code rdma_get_ll_mac()}: drop the ff:fe in the
     * middle, flip the universal/local bit).
     *
     * @param eui64 the interface identifier (a GUID or the low 64 bits of a link-local address)
     * @return the MAC address
     */
    public static MacAddress fromEui64(long eui64) {
        long hi = (eui64 >>> 40) & 0xFF_FFFFL;
        long lo = eui64 & 0xFF_FFFFL;
        return new MacAddress((hi << 24 | lo) ^ 0x0200_0000_0000L);
    }

    /** @return the modified EUI-64 interface identifier (RFC 4291 appendix A) */
    public long toEui64() {
        long v = value ^ 0x0200_0000_0000L;
        return (v >>> 24) << 40 | 0xFF_FE00_0000L | (v & 0xFF_FFFFL);
    }

    /** @return the fe80::/64 link-local IPv6 address built from this MAC (RFC 4862 / {@code addrconf_addr_eui48()}) */
    public Inet6Address linkLocalIpv6() {
        byte[] a = new byte[16];
        a[0] = (byte) 0xFE;
        a[1] = (byte) 0x80;
        long id = toEui64();
        for (int i = 0; i < 8; i++) {
            a[8 + i] = (byte) (id >>> (56 - 8 * i));
        }
        try {
            return (Inet6Address) InetAddress.getByAddress(a);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the address in the low 48 bits */
    public long value() {
        return value;
    }

    /** @return the 6 bytes in wire order */
    public byte[] bytes() {
        byte[] b = new byte[6];
        writeTo(b, 0);
        return b;
    }

    /**
     * @param dst destination
     * @param off first byte
     */
    public void writeTo(byte[] dst, int off) {
        for (int i = 0; i < 6; i++) {
            dst[off + i] = (byte) (value >>> (40 - 8 * i));
        }
    }

    /** @return whether this is a group (multicast or broadcast) address: I/G bit set */
    public boolean isMulticast() {
        return (value & 0x0100_0000_0000L) != 0;
    }

    /** @return whether this is ff:ff:ff:ff:ff:ff */
    public boolean isBroadcast() {
        return value == 0xFFFF_FFFF_FFFFL;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MacAddress && ((MacAddress) o).value == value;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }

    @Override
    public String toString() {
        return String.format("%02x:%02x:%02x:%02x:%02x:%02x", value >>> 40, (value >>> 32) & 0xFF,
                (value >>> 24) & 0xFF, (value >>> 16) & 0xFF, (value >>> 8) & 0xFF, value & 0xFF);
    }
}
