package io.edp.engine.nic.steering;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/** Builds Ethernet frames (optionally VLAN-tagged) carrying IPv4 or IPv6 with TCP or UDP ports. */
final class TestFrames {

    static final int TCP = 6;
    static final int UDP = 17;

    private TestFrames() {
    }

    static MemorySegment frame(long dstMac, int vlan, String src, int srcPort, String dst, int dstPort, int protocol) {
        byte[] source = address(src);
        byte[] destination = address(dst);
        boolean v6 = source.length == 16;
        ByteBuffer frame = ByteBuffer.allocate(128);
        frame.putShort((short) (dstMac >>> 32)).putInt((int) dstMac);
        frame.putShort((short) 0x0250).putInt(0x56000001);
        if (vlan != 0) {
            frame.putShort((short) 0x8100).putShort((short) vlan);
        }
        if (v6) {
            frame.putShort((short) 0x86DD).putInt(0x60000000).putShort((short) 8).put((byte) protocol).put((byte) 64);
        } else {
            frame.putShort((short) 0x0800).put((byte) 0x45).put((byte) 0).putShort((short) 28).putInt(0)
                    .put((byte) 64).put((byte) protocol).putShort((short) 0);
        }
        frame.put(source).put(destination).putShort((short) srcPort).putShort((short) dstPort).putInt(0);
        return MemorySegment.ofArray(Arrays.copyOf(frame.array(), frame.position()));
    }

    static MemorySegment ipv4Udp(long dstMac, int vlan, int flow) {
        return frame(dstMac, vlan, "10.0.0." + (1 + flow % 200), 1024 + flow, "10.1.0.1", 4789, UDP);
    }

    static byte[] address(String text) {
        try {
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
