package org.rdma.target.internal.pr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Persistent reservations in a file, LIO's layout: {@code <dir>/aptpl_<unit serial>} holding
 * {@link PrState#encode()}. A save writes a temporary file, forces it, and renames it over the
 * old one, so a crash leaves the old state or the new, never half of one.
 */
public final class FilePrStore implements PrStore {
    private final Path file;

    /** The store of the device with this unit serial number, in {@code dir} (created when missing). */
    public FilePrStore(Path dir, String unitSerial) {
        this.file = dir.resolve("aptpl_" + unitSerial);
    }

    public Path file() {
        return file;
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public Optional<PrState> load() throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        return Optional.of(PrState.parse(Files.readString(file, StandardCharsets.UTF_8)));
    }

    @Override
    public void save(PrState state) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.wrap(state.encode().getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void clear() throws IOException {
        Files.deleteIfExists(file);
    }
}
