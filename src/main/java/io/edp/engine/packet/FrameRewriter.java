package io.edp.engine.packet;

import static io.edp.engine.packet.NetworkOrder.U16;
import static io.edp.engine.packet.NetworkOrder.U32;
import static io.edp.engine.packet.NetworkOrder.U64;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.slowpath.Action;
import io.edp.engine.slowpath.ForwardingTables;
import io.edp.engine.slowpath.VlanOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Executes an {@link Action}'s header rewrites on a parsed frame: TTL / hop-limit decrement (with an incremental
 * IPv4 checksum update, RFC 1624), MAC rewrite, then VLAN push / pop / set (QinQ: pop both, or pop and set)
 * using the mbuf headroom. Used by the
 * fast path and the slow path alike, so both produce identical frames.
 */
public final class FrameRewriter {

    /** {@link #apply} result: the frame is ready to transmit. */
    public static final int FORWARD = -1;

    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private FrameRewriter() {
    }

    /**
     * Whether {@code a} sends {@code m} out of a port whose MTU its IP packet exceeds (IPv4 total length, IPv6 40 +
     * payload length, as the parser kept them; never ARP): the worker drops it before the rewrite, and the packet
     * trace says so.
     */
    public static boolean exceedsMtu(Mbuf m, Action a, ForwardingTables t) {
        return !a.drops() && m.ipLength() > t.mtu(a.outPort());
    }

    /** Rewrites the frame of {@code m}; returns {@link #FORWARD} or a {@link DropReason} ordinal. */
    public static int apply(Mbuf m, Action a) {
        if (a.drops()) {
            return a.dropReason();
        }
        MemorySegment data = m.data();
        long frame = m.dataAddress();
        if (a.decrementTtl()) {
            long l3 = frame + m.l3Offset();
            int version = FlowKey.ipVersion(m.descriptors().get(LONG, m.flowKeyAddress() + FlowKey.L4));
            long ttlAt = l3 + (version == 4 ? 8 : 7);
            int ttl = data.get(BYTE, ttlAt) & 0xFF;
            if (ttl <= 1) {
                return DropReason.TTL_EXCEEDED.ordinal();
            }
            data.set(BYTE, ttlAt, (byte) (ttl - 1));
            if (version == 4) {
                // TTL is the high byte of a 16-bit word: decrementing it raises the one's-complement sum by 0x100
                int sum = (data.get(U16, l3 + 10) & 0xFFFF) + 0x100;
                data.set(U16, l3 + 10, (short) ((sum & 0xFFFF) + (sum >>> 16)));
            }
        }
        VlanOp op = a.vlanOp();
        if (op == VlanOp.PUSH && a.rewriteMacs()) {
            // the new MACs go straight where the push puts them: no store of them read back by the move
            writeMacs(data, frame - 4, a.dstMac(), a.srcMac());
            tag(m, data, frame, a.vlan());
            return FORWARD;
        }
        if (a.rewriteMacs()) {
            writeMacs(data, frame, a.dstMac(), a.srcMac());
        }
        vlan(m, op, a.vlan());
        return FORWARD;
    }

    /** Pushes, pops or sets the frame's VLAN tags as {@code op} says ({@code vid}: the tag pushed or set). */
    public static void vlan(Mbuf m, VlanOp op, int vid) {
        MemorySegment data = m.data();
        long frame = m.dataAddress();
        if (op == VlanOp.PUSH) {
            moveMacs(data, frame, frame - 4);
            tag(m, data, frame, vid);
        } else if (op == VlanOp.POP) {
            pop(m, data, frame, 1);
        } else if (op == VlanOp.SET) {
            setVid(data, frame + 14, vid);
        } else if (op == VlanOp.POP_BOTH) {
            pop(m, data, frame, 2);
        } else if (op == VlanOp.POP_SET) {
            setVid(data, frame + 18, vid);
            pop(m, data, frame, 1);
        }
    }

    /** Writes a pushed tag into the 4 bytes the MACs moved out of (they now start at {@code frame - 4}). */
    private static void tag(Mbuf m, MemorySegment data, long frame, int vid) {
        data.set(U16, frame + 8, (short) FlowKey.ETHERTYPE_VLAN);
        data.set(U16, frame + 10, (short) vid);
        m.dataOffset(m.dataOffset() - 4).dataLength(m.dataLength() + 4);
        m.l3Offset(m.l3Offset() + 4);
    }

    /** Keeps the priority bits of the tag control word at {@code tci}, replaces its VID. */
    private static void setVid(MemorySegment data, long tci, int vid) {
        data.set(U16, tci, (short) ((data.get(U16, tci) & 0xF000) | vid));
    }

    /** Removes the outer {@code tags} 802.1Q tags by moving the MACs over them. */
    private static void pop(Mbuf m, MemorySegment data, long frame, int tags) {
        int bytes = 4 * tags;
        moveMacs(data, frame, frame + bytes);
        m.dataOffset(m.dataOffset() + bytes).dataLength(m.dataLength() - bytes);
        m.l3Offset(m.l3Offset() - bytes);
    }

    /** Moves the 12 MAC bytes (overlapping moves included: both words are read before writing). */
    private static void moveMacs(MemorySegment data, long from, long to) {
        long first = data.get(LONG, from);
        int rest = data.get(ValueLayout.JAVA_INT_UNALIGNED, from + 8);
        data.set(LONG, to, first);
        data.set(ValueLayout.JAVA_INT_UNALIGNED, to + 8, rest);
    }

    /** Writes the destination then the source MAC (48 bits each) as the 12 bytes at {@code at}: two stores. */
    private static void writeMacs(MemorySegment data, long at, long dstMac, long srcMac) {
        data.set(U64, at, (dstMac << 16) | ((srcMac >>> 32) & 0xFFFF));
        data.set(U32, at + 8, (int) srcMac);
    }
}
