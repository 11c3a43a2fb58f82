package io.edp.engine.nic;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.pcap.PcapConfig;
import io.edp.engine.nic.pcap.PcapDriver;
import java.lang.foreign.MemorySegment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Frames for driver tests, built byte by byte. */
public final class TestFrames {

    private TestFrames() {
    }

    /**
     * Ethernet/IPv4/UDP 10.0.0.1 → 10.0.1.1 from UDP port {@code sourcePort} to 4000, {@code length} bytes, sent to
     * the engine's default router MAC (so an engine routes it).
     */
    public static byte[] udp(int sourcePort, int length) {
        ByteBuffer frame = ByteBuffer.allocate(length);
        frame.put(new byte[] {2, (byte) 0xed, 0, 0, 0, 1, 2, 0, 0, 0, 0, 1}).putShort((short) 0x0800);
        frame.put((byte) 0x45).put((byte) 0).putShort((short) (length - 14)).putInt(0).put((byte) 64).put((byte) 17)
                .putShort((short) 0).put(new byte[] {10, 0, 0, 1, 10, 0, 1, 1});
        frame.putShort((short) sourcePort).putShort((short) 4000).putShort((short) (length - 34)).putShort((short) 0);
        return frame.array();
    }

    /** Writes {@code frames} to a classic pcap file with the pcap driver. */
    public static void writeCapture(Path file, List<byte[]> frames) {
        try (MbufPool pool = new MbufPool(1024, Mbuf.DESCRIPTOR_BYTES);
                PcapDriver writer = PcapDriver.open(PcapConfig.of(null, file), 0, pool)) {
            MbufCache cache = new MbufCache(pool);
            Mbuf m = new Mbuf(pool);
            int[] one = new int[1];
            for (byte[] frame : frames) {
                one[0] = cache.allocate();
                m.wrap(one[0]).copyFrom(MemorySegment.ofArray(frame), 0, frame.length);
                writer.txBurst(0, cache, one, 1);
            }
        }
    }

    /** The frames of a classic little-endian pcap file (as the pcap driver writes them), in file order. */
    public static List<byte[]> readCapture(Path file) {
        ByteBuffer in;
        try {
            in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int magic = in.getInt(0);
        if (magic != 0xa1b2c3d4 && magic != 0xa1b23c4d) {
            throw new IllegalArgumentException(file + ": not a little-endian pcap file");
        }
        List<byte[]> frames = new ArrayList<>();
        in.position(24);
        while (in.remaining() >= 16) {
            in.position(in.position() + 8);
            byte[] frame = new byte[in.getInt()];
            in.getInt();
            in.get(frame);
            frames.add(frame);
        }
        return frames;
    }
}
