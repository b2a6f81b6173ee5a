package org.rdma.fabric;

import java.nio.file.Path;
import org.osgi.annotation.versioning.ProviderType;

/** A running packet capture (what {@code ibdump}/{@code tcpdump -w} produce). Close it to stop. */
@ProviderType
public interface Capture extends AutoCloseable {

    /** @return the pcap file being written ({@code ibdump -w} / {@code tcpdump -w}) */
    Path file();

    /** @return the number of packets written so far */
    long packets();

    /** @return whether the capture is still running */
    boolean isOpen();

    /** Stops the capture and flushes the file. Idempotent. */
    @Override
    void close();
}
