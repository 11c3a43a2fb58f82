package io.edp.engine.nic.steering;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The few header fields a NIC looks at before choosing a queue, read straight from the frame in network byte
 * order. Static and allocation-free: steering runs for every received frame.
 */
final class EthernetFrame {

    static final int HEADER_BYTES = 14;
    static final int VLAN_TAG_BYTES = 4;
    static final int ETHERTYPE_OFFSET = 12;
    static final int ETHERTYPE_VLAN = 0x8100;
    static final int ETHERTYPE_IPV4 = 0x0800;
    static final int ETHERTYPE_IPV6 = 0x86DD;
    /** The VLAN id of an untagged frame. */
    static final int UNTAGGED = 0;

    private EthernetFrame() {
    }

    static int u8(MemorySegment frame, long at) {
        return frame.get(ValueLayout.JAVA_BYTE, at) & 0xff;
    }

    static int u16(MemorySegment frame, long at) {
        return (u8(frame, at) << 8) | u8(frame, at + 1);
    }

    /** The 48-bit destination MAC in the low bits of a long. */
    static long destinationMac(MemorySegment frame, long offset) {
        return ((long) u16(frame, offset) << 32) | ((long) u16(frame, offset + 2) << 16) | u16(frame, offset + 4);
    }

    /** Group bit of the destination MAC: broadcast and multicast frames. */
    static boolean isGroupAddress(MemorySegment frame, long offset) {
        return (u8(frame, offset) & 0x01) != 0;
    }

    static boolean isVlanTagged(MemorySegment frame, long offset, int length) {
        return length >= HEADER_BYTES + VLAN_TAG_BYTES && u16(frame, offset + ETHERTYPE_OFFSET) == ETHERTYPE_VLAN;
    }

    static int vlan(MemorySegment frame, long offset, int length) {
        return isVlanTagged(frame, offset, length) ? u16(frame, offset + HEADER_BYTES) & 0x0fff : UNTAGGED;
    }

    /** Ethertype after an optional 802.1Q tag. */
    static int etherType(MemorySegment frame, long offset, int length) {
        return isVlanTagged(frame, offset, length)
                ? u16(frame, offset + HEADER_BYTES + 2)
                : u16(frame, offset + ETHERTYPE_OFFSET);
    }

    /** Offset of the L3 header within the frame. */
    static int l3Offset(MemorySegment frame, long offset, int length) {
        return isVlanTagged(frame, offset, length) ? HEADER_BYTES + VLAN_TAG_BYTES : HEADER_BYTES;
    }
}
