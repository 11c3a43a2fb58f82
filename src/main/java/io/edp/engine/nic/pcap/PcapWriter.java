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

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Appends frames to a classic pcap file (little-endian, Ethernet); tcpdump and tshark read the result. The pcap
 * driver and live captures ({@link io.edp.engine.capture}) write with it.
 */
public final class PcapWriter extends CaptureFileWriter {

    private static final int SNAPLEN = 262_144;

    private final boolean nanos;

    PcapWriter(Path path, boolean nanosecondTimestamps) {
        this(path, nanosecondTimestamps, SNAPLEN);
    }

    /** A new file at {@code path} (replacing one that is there) whose header says {@code snaplen}. */
    public PcapWriter(Path path, boolean nanosecondTimestamps, int snaplen) {
        super(path);
        this.nanos = nanosecondTimestamps;
        int at = reserve(FILE_HEADER_BYTES);
        stagingSegment.set(INT, at, nanos ? MAGIC_NANOS : MAGIC_MICROS);
        stagingSegment.set(SHORT, at + 4, (short) VERSION_MAJOR);
        stagingSegment.set(SHORT, at + 6, (short) VERSION_MINOR);
        stagingSegment.set(INT, at + 8, 0);
        stagingSegment.set(INT, at + 12, 0);
        stagingSegment.set(INT, at + SNAPLEN_OFFSET, snaplen);
        stagingSegment.set(INT, at + NETWORK_OFFSET, LINKTYPE_ETHERNET);
        flush(); // a file with no frames is still a valid capture
    }

    /** Appends the frame {@code source[offset, offset + length)} captured at {@code epochNanos}. */
    void write(MemorySegment source, long offset, int length, long epochNanos) {
        write(source, offset, length, length, epochNanos, false);
    }

    @Override
    public void write(MemorySegment source, long offset, int length, int originalLength, long epochNanos,
            boolean inbound) {
        int at = reserve(RECORD_HEADER_BYTES + length);
        long seconds = epochNanos / 1_000_000_000L;
        long fraction = epochNanos % 1_000_000_000L;
        stagingSegment.set(INT, at + TS_SEC_OFFSET, (int) seconds);
        stagingSegment.set(INT, at + TS_FRACTION_OFFSET, (int) (nanos ? fraction : fraction / 1_000));
        stagingSegment.set(INT, at + INCL_LEN_OFFSET, length);
        stagingSegment.set(INT, at + ORIG_LEN_OFFSET, originalLength);
        MemorySegment.copy(source, offset, stagingSegment, at + RECORD_HEADER_BYTES, length);
    }
}
