package io.edp.engine.nic;

import java.nio.ByteBuffer;

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
}
