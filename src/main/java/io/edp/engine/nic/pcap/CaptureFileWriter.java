package io.edp.engine.nic.pcap;

import io.edp.engine.nic.NicSetupException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends frames to a capture file (classic pcap or pcapng) through one reused 1 MiB staging buffer, so a frame
 * costs a copy and, once per megabyte, a write. One thread at a time; {@link #flushedBytes()} from any.
 */
public abstract sealed class CaptureFileWriter implements AutoCloseable permits PcapWriter, PcapngWriter {

    static final int STAGING_BYTES = 1 << 20;
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES);
    final MemorySegment stagingSegment = MemorySegment.ofBuffer(staging);
    private int filled;
    /** Bytes of the file written out so far: a prefix that holds whole records only. */
    private volatile long flushedBytes;

    /** A new file at {@code path}, replacing one that is there. */
    CaptureFileWriter(Path path) {
        this.path = path;
        try {
            // a symbolic link put in place of the file must not redirect the write elsewhere
            this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new NicSetupException("pcap " + path + ": cannot write: " + e.getMessage(), e);
        }
    }

    /**
     * Appends the first {@code length} bytes, {@code source[offset, offset + length)}, of a frame of
     * {@code originalLength} bytes captured at {@code epochNanos}; {@code inbound}: the port received it rather
     * than transmitted it (a pcapng file records it; a classic pcap file has no place for it).
     */
    public abstract void write(MemorySegment source, long offset, int length, int originalLength, long epochNanos,
            boolean inbound);

    /** Room for a record of {@code bytes} in the staging buffer (written out first when full): its offset. */
    final int reserve(int bytes) {
        if (filled + bytes > STAGING_BYTES) {
            flush();
        }
        int at = filled;
        filled += bytes;
        return at;
    }

    /** Writes what is staged, so readers see every frame written so far. */
    public final void flush() {
        staging.clear().limit(filled);
        try {
            while (staging.hasRemaining()) {
                channel.write(staging);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("pcap " + path + ": write failed", e);
        }
        flushedBytes += filled;
        filled = 0;
    }

    /** How many leading bytes of the file are written out: whole records only. Any thread. */
    public final long flushedBytes() {
        return flushedBytes;
    }

    /** Whether frames wait in the staging buffer. */
    public final boolean staged() {
        return filled > 0;
    }

    @Override
    public final void close() {
        try (channel) {
            flush();
        } catch (IOException e) {
            throw new UncheckedIOException("pcap " + path + ": close failed", e);
        }
    }
}
