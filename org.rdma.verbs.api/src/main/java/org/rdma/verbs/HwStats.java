package org.rdma.verbs;

import java.util.Arrays;

/**
 * A driver's hardware counters for one port: {@code struct rdma_hw_stats} with its descriptors
 * ({@code struct rdma_stat_desc}). The driver allocates it once per port with the counters'
 * names ({@code alloc_hw_port_stats}) and fills {@link #value} on each read
 * ({@code get_hw_stats}); {@code rdma statistic show link DEV/PORT} prints the pairs in order.
 * Reading allocates nothing.
 */
public final class HwStats {
    private final String[] names;
    /** {@code value[]}: one per name, in the same order. */
    public final long[] value;

    /** {@code rdma_alloc_hw_stats_struct()}: counters named {@code names}, all 0. */
    public HwStats(String... names) {
        this.names = names.clone();
        this.value = new long[names.length];
    }

    /** {@code num_counters}. */
    public int numCounters() {
        return names.length;
    }

    /** {@code descs[i].name}. */
    public String name(int i) {
        return names[i];
    }

    /** The index of {@code name}, or -1. */
    public int indexOf(String name) {
        return Arrays.asList(names).indexOf(name);
    }
}
