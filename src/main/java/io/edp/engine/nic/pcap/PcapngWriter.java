package io.edp.engine.nic.pcap;

import static io.edp.engine.nic.pcap.PcapFormat.LINKTYPE_ETHERNET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Appends frames to a pcapng file (little-endian): one Section Header Block, one Interface Description Block
 * naming the captured port, then an Enhanced Packet Block per frame whose {@code epb_flags} say whether the port
 * received or transmitted it — what a classic pcap file cannot say, so a capture of both directions needs this
 * format to tell them apart (tshark: {@code frame.packet_flags_direction}; Wireshark's "Direction" column).
 * <pre>
 * block: type (4), total length (4), body, options (code 2, length 2, value padded to 4; code 0 ends), total length
 * SHB 0x0a0d0d0a: byte-order magic 0x1a2b3c4d, version 1.0, section length -1 (unknown)
 * IDB 1: link type 1 (Ethernet), reserved, snaplen; if_name (2), if_tsresol (9: 6 = µs, 9 = ns)
 * EPB 6: interface 0, timestamp high, low (in if_tsresol units), captured length, original length, data padded
 *        to 4; epb_flags (2): bits 0-1 = 1 inbound, 2 outbound
 * </pre>
 */
public final class PcapngWriter extends CaptureFileWriter {

    static final int BLOCK_SHB = 0x0a0d0d0a;
    static final int BLOCK_IDB = 1;
    static final int BLOCK_EPB = 6;
    static final int BYTE_ORDER_MAGIC = 0x1a2b3c4d;
    static final int FLAGS_INBOUND = 1;
    static final int FLAGS_OUTBOUND = 2;
    private static final short OPT_END = 0;
    private static final short OPT_IF_NAME = 2;
    private static final short OPT_IF_TSRESOL = 9;
    private static final short OPT_EPB_FLAGS = 2;
    private static final int SHB_BYTES = 28;
    /** An EPB's fixed part (type to original length) plus its trailer: flags option, end of options, length. */
    private static final int EPB_HEADER_BYTES = 28;
    private static final int EPB_TRAILER_BYTES = 8 + 4 + 4;
    /** if_name's longest value, in bytes. */
    private static final int MAX_NAME_BYTES = 255;

    private final boolean nanos;

    /**
     * A new file at {@code path} (replacing one that is there) for frames of the port named {@code interfaceName}
     * cut to {@code snaplen} bytes, stamped in microseconds or nanoseconds.
     */
    public PcapngWriter(Path path, String interfaceName, boolean nanosecondTimestamps, int snaplen) {
        super(path);
        this.nanos = nanosecondTimestamps;
        int at = reserve(SHB_BYTES);
        stagingSegment.set(INT, at, BLOCK_SHB);
        stagingSegment.set(INT, at + 4, SHB_BYTES);
        stagingSegment.set(INT, at + 8, BYTE_ORDER_MAGIC);
        stagingSegment.set(SHORT, at + 12, (short) 1);
        stagingSegment.set(SHORT, at + 14, (short) 0);
        stagingSegment.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 16, -1L);
        stagingSegment.set(INT, at + 24, SHB_BYTES);

        byte[] name = interfaceName.getBytes(StandardCharsets.UTF_8);
        int nameLength = Math.min(name.length, MAX_NAME_BYTES);
        int idbBytes = 16 + 4 + padded(nameLength) + 8 + 4 + 4;
        at = reserve(idbBytes);
        stagingSegment.asSlice(at, idbBytes).fill((byte) 0);
        stagingSegment.set(INT, at, BLOCK_IDB);
        stagingSegment.set(INT, at + 4, idbBytes);
        stagingSegment.set(SHORT, at + 8, (short) LINKTYPE_ETHERNET);
        stagingSegment.set(INT, at + 12, snaplen);
        int option = at + 16;
        stagingSegment.set(SHORT, option, OPT_IF_NAME);
        stagingSegment.set(SHORT, option + 2, (short) nameLength);
        MemorySegment.copy(name, 0, stagingSegment, ValueLayout.JAVA_BYTE, option + 4, nameLength);
        option += 4 + padded(nameLength);
        stagingSegment.set(SHORT, option, OPT_IF_TSRESOL);
        stagingSegment.set(SHORT, option + 2, (short) 1);
        stagingSegment.set(ValueLayout.JAVA_BYTE, option + 4, (byte) (nanos ? 9 : 6));
        stagingSegment.set(INT, option + 8, OPT_END); // code and length 0
        stagingSegment.set(INT, at + idbBytes - 4, idbBytes);
        flush(); // a file with no frames is still a valid capture
    }

    private static int padded(int length) {
        return (length + 3) & ~3;
    }

    @Override
    public void write(MemorySegment source, long offset, int length, int originalLength, long epochNanos,
            boolean inbound) {
        int data = padded(length);
        int bytes = EPB_HEADER_BYTES + data + EPB_TRAILER_BYTES;
        int at = reserve(bytes);
        long timestamp = nanos ? epochNanos : epochNanos / 1_000;
        stagingSegment.set(INT, at, BLOCK_EPB);
        stagingSegment.set(INT, at + 4, bytes);
        stagingSegment.set(INT, at + 8, 0);
        stagingSegment.set(INT, at + 12, (int) (timestamp >>> 32));
        stagingSegment.set(INT, at + 16, (int) timestamp);
        stagingSegment.set(INT, at + 20, length);
        stagingSegment.set(INT, at + 24, originalLength);
        MemorySegment.copy(source, offset, stagingSegment, at + EPB_HEADER_BYTES, length);
        int trailer = at + EPB_HEADER_BYTES + data;
        for (int pad = at + EPB_HEADER_BYTES + length; pad < trailer; pad++) {
            stagingSegment.set(ValueLayout.JAVA_BYTE, pad, (byte) 0);
        }
        stagingSegment.set(SHORT, trailer, OPT_EPB_FLAGS);
        stagingSegment.set(SHORT, trailer + 2, (short) 4);
        stagingSegment.set(INT, trailer + 4, inbound ? FLAGS_INBOUND : FLAGS_OUTBOUND);
        stagingSegment.set(INT, trailer + 8, OPT_END);
        stagingSegment.set(INT, trailer + 12, bytes);
    }
}
