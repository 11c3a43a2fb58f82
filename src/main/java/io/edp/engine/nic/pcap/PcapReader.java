package io.edp.engine.nic.pcap;

import static io.edp.engine.nic.pcap.PcapFormat.FILE_HEADER_BYTES;
import static io.edp.engine.nic.pcap.PcapFormat.INCL_LEN_OFFSET;
import static io.edp.engine.nic.pcap.PcapFormat.LINKTYPE_ETHERNET;
import static io.edp.engine.nic.pcap.PcapFormat.MAGIC_MICROS;
import static io.edp.engine.nic.pcap.PcapFormat.MAGIC_NANOS;
import static io.edp.engine.nic.pcap.PcapFormat.MAGIC_PCAPNG;
import static io.edp.engine.nic.pcap.PcapFormat.NETWORK_OFFSET;
import static io.edp.engine.nic.pcap.PcapFormat.RECORD_HEADER_BYTES;
import static io.edp.engine.nic.pcap.PcapFormat.TS_FRACTION_OFFSET;
import static io.edp.engine.nic.pcap.PcapFormat.TS_SEC_OFFSET;

import io.edp.engine.nic.NicSetupException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A cursor over a classic pcap file mapped into memory: microsecond or nanosecond timestamps, either byte order.
 * Frames are read in place ({@link #file()} at {@link #frameOffset()}); nothing is allocated per record. A
 * record cut short at the end of the file (a capture that was killed) ends the replay.
 */
final class PcapReader implements AutoCloseable {

    private final Arena arena = Arena.ofShared();
    private final MemorySegment file;
    private final ValueLayout.OfInt field;
    private final long fractionToNanos;
    private long record = FILE_HEADER_BYTES;

    PcapReader(Path path) {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            file = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
        } catch (IOException e) {
            arena.close();
            throw new NicSetupException("pcap " + path + ": cannot read: " + e.getMessage(), e);
        }
        try {
            if (file.byteSize() < FILE_HEADER_BYTES) {
                throw new NicSetupException("pcap " + path + ": shorter than a pcap file header");
            }
            int magic = file.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0);
            ByteOrder order = ByteOrder.LITTLE_ENDIAN;
            if (magic != MAGIC_MICROS && magic != MAGIC_NANOS) {
                magic = Integer.reverseBytes(magic);
                order = ByteOrder.BIG_ENDIAN;
            }
            if (magic == MAGIC_PCAPNG || Integer.reverseBytes(magic) == MAGIC_PCAPNG) {
                throw new NicSetupException(
                        "pcap " + path + ": pcapng is not supported, convert it with: editcap -F pcap IN OUT");
            }
            if (magic != MAGIC_MICROS && magic != MAGIC_NANOS) {
                // never the bytes read: the file may be one the caller may not read (a pcap NIC naming /etc/shadow)
                throw new NicSetupException("pcap " + path + ": not a pcap file");
            }
            field = ValueLayout.JAVA_INT_UNALIGNED.withOrder(order);
            fractionToNanos = magic == MAGIC_NANOS ? 1 : 1_000;
            int network = file.get(field, NETWORK_OFFSET);
            if (network != LINKTYPE_ETHERNET) {
                throw new NicSetupException("pcap " + path + ": link type " + network + " is not Ethernet (1)");
            }
        } catch (NicSetupException e) {
            arena.close();
            throw e;
        }
    }

    /** True when a whole record is left. */
    boolean hasFrame() {
        long frame = record + RECORD_HEADER_BYTES;
        if (frame > file.byteSize()) {
            return false;
        }
        int length = frameLength();
        return length >= 0 && frame + length <= file.byteSize();
    }

    MemorySegment file() {
        return file;
    }

    long frameOffset() {
        return record + RECORD_HEADER_BYTES;
    }

    int frameLength() {
        return file.get(field, record + INCL_LEN_OFFSET);
    }

    /** Capture time of the current frame, in nanoseconds since the epoch. */
    long timestampNanos() {
        return Integer.toUnsignedLong(file.get(field, record + TS_SEC_OFFSET)) * 1_000_000_000L
                + Integer.toUnsignedLong(file.get(field, record + TS_FRACTION_OFFSET)) * fractionToNanos;
    }

    void advance() {
        record = frameOffset() + frameLength();
    }

    @Override
    public void close() {
        arena.close();
    }
}
