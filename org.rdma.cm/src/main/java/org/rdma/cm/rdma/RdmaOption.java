package org.rdma.cm.rdma;

/** The options of {@code rdma_set_option()} (level {@code RDMA_OPTION_ID}). */
public enum RdmaOption {
    /** {@code RDMA_OPTION_ID_TOS}: type of service ({@code rdma_set_service_type()}). */
    ID_TOS,
    /** {@code RDMA_OPTION_ID_REUSEADDR}: share the port with other reusing ids ({@code rdma_set_reuseaddr()}). */
    ID_REUSEADDR,
    /** {@code RDMA_OPTION_ID_AFONLY}: an IPv6 id takes no IPv4 requests ({@code rdma_set_afonly()}). */
    ID_AFONLY,
    /** {@code RDMA_OPTION_ID_ACK_TIMEOUT}: the QP's local ACK timeout exponent ({@code rdma_set_ack_timeout()}). */
    ID_ACK_TIMEOUT
}
