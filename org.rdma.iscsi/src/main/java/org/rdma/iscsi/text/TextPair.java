package org.rdma.iscsi.text;

/** One key=value pair of a text data segment (RFC 7143 6.1). */
public record TextPair(String key, String value) {
    @Override
    public String toString() {
        return key + "=" + value;
    }
}
