package io.edp.engine.nic.pcap;

import static io.edp.engine.nic.pcap.PcapFormat.FILE_HEADER_BYTES;
import static io.edp.engine.nic.pcap.PcapFormat.INCL_LEN_OFFSET;
import static io.edp.engine.nic.pcap.PcapFormat.LINKTYPE_ETHERNET;
import static io.edp.engine.nic.pcap.PcapFormat.MAGIC_MICROS;
import static io.edp.engine.nic.pcap.PcapFormat.MAGIC_NANOS;
import static io.edp.engine.nic.pcap.PcapFormat.NETWORK_OFFSET;
import static io.edp.engine.nic.pcap.PcapFormat.ORIG_LEN_OFFSET;
import static io.edp.engine.nic.pcap.PcapFormat.RECORD_HEADER_BYTES;
import static io.edp.engine.nic.pcap.PcapFormat.SNAPLEN_OFFSET;
import static io.edp.engine.nic.pcap.PcapFormat.TS_FRACTION_OFFSET;
import static io.edp.engine.nic.pcap.PcapFormat.TS_SEC_OFFSET;
import static io.edp.engine.nic.pcap.PcapFormat.VERSION_MAJOR;
import static io.edp.engine.nic.pcap.PcapFormat.VERSION_MINOR;

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
 * Appends frames to a classic pcap file (little-endian, Ethernet) through one reused 1 MiB staging buffer, so a
 * frame costs a copy and, once per megabyte, a write. tcpdump and tshark read the result. The pcap driver and
 * live captures ({@link io.edp.engine.capture}) write with it; one thread at a time.
 */
public final class PcapWriter implements AutoCloseable {

    private static final int STAGING_BYTES = 1 << 20;
    private static final int SNAPLEN = 262_144;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES);
    private final MemorySegment stagingSegment = MemorySegment.ofBuffer(staging);
    private final boolean nanos;
    private int filled;
    /** Bytes of the file written out so far: a prefix that holds whole records only. */
    private volatile long flushedBytes;

    PcapWriter(Path path, boolean nanosecondTimestamps) {
        this(path, nanosecondTimestamps, SNAPLEN);
    }

    /** A new file at {@code path} (replacing one that is there) whose header says {@code snaplen}. */
    public PcapWriter(Path path, boolean nanosecondTimestamps, int snaplen) {
        this.path = path;
        this.nanos = nanosecondTimestamps;
        try {
            // a symbolic link put in place of the file must not redirect the write elsewhere
            this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new NicSetupException("pcap " + path + ": cannot write: " + e.getMessage(), e);
        }
        MemorySegment header = stagingSegment;
        header.set(INT, 0, nanos ? MAGIC_NANOS : MAGIC_MICROS);
        header.set(SHORT, 4, (short) VERSION_MAJOR);
        header.set(SHORT, 6, (short) VERSION_MINOR);
        header.set(INT, 8, 0);
        header.set(INT, 12, 0);
        header.set(INT, SNAPLEN_OFFSET, snaplen);
        header.set(INT, NETWORK_OFFSET, LINKTYPE_ETHERNET);
        filled = FILE_HEADER_BYTES;
        flush(); // a file with no frames is still a valid capture
    }

    /** Appends the frame {@code source[offset, offset + length)} captured at {@code epochNanos}. */
    void write(MemorySegment source, long offset, int length, long epochNanos) {
        write(source, offset, length, length, epochNanos);
    }

    /**
     * Appends the first {@code length} bytes, {@code source[offset, offset + length)}, of a frame of
     * {@code originalLength} bytes captured at {@code epochNanos}.
     */
    public void write(MemorySegment source, long offset, int length, int originalLength, long epochNanos) {
        if (filled + RECORD_HEADER_BYTES + length > STAGING_BYTES) {
            flush();
        }
        long seconds = epochNanos / 1_000_000_000L;
        long fraction = epochNanos % 1_000_000_000L;
        stagingSegment.set(INT, filled + TS_SEC_OFFSET, (int) seconds);
        stagingSegment.set(INT, filled + TS_FRACTION_OFFSET, (int) (nanos ? fraction : fraction / 1_000));
        stagingSegment.set(INT, filled + INCL_LEN_OFFSET, length);
        stagingSegment.set(INT, filled + ORIG_LEN_OFFSET, originalLength);
        MemorySegment.copy(source, offset, stagingSegment, filled + RECORD_HEADER_BYTES, length);
        filled += RECORD_HEADER_BYTES + length;
    }

    /** Writes what is staged, so readers see every frame written so far. */
    public void flush() {
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
    public long flushedBytes() {
        return flushedBytes;
    }

    /** Whether frames wait in the staging buffer. */
    public boolean staged() {
        return filled > 0;
    }

    @Override
    public void close() {
        try (channel) {
            flush();
        } catch (IOException e) {
            throw new UncheckedIOException("pcap " + path + ": close failed", e);
        }
    }
}
