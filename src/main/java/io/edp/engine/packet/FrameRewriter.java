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

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int ETHERNET_HEADER = 14;

    private FrameRewriter() {
    }

    /**
     * Whether {@code a} sends {@code m}, a frame of {@code length} bytes, out of a port whose MTU its IP packet
     * exceeds (IPv4 total length, IPv6 40 + payload length, as the parser kept them; never ARP): the worker drops it
     * before the rewrite, and the packet trace says so. The parser lets no IP packet run past its frame, so a frame
     * no longer than the MTU and an Ethernet header cannot exceed it, and its IP length is then not read.
     */
    public static boolean exceedsMtu(Mbuf m, int length, Action a, ForwardingTables t) {
        if (a.drops()) {
            return false;
        }
        int mtu = t.mtu(a.outPort());
        return length - ETHERNET_HEADER > mtu && m.ipLength() > mtu;
    }

    /**
     * Rewrites the frame of {@code m}; returns {@link #FORWARD} or a {@link DropReason} ordinal. Every packet of the
     * fast path runs this, so it touches memory in as few accesses as it can: each costs the JIT about 900 nodes of
     * the budget after which it stops inlining into the worker's compile unit (docs/engine.md, the pipeline).
     */
    public static int apply(Mbuf m, Action a) {
        if (a.drops()) {
            return a.dropReason();
        }
        MemorySegment data = m.data();
        long firstWord = m.firstWord();
        long frame = m.dataAddress(firstWord);
        if (a.decrementTtl() && !decrementedTtl(m, data, frame + m.l3Offset())) {
            return DropReason.TTL_EXCEEDED.ordinal();
        }
        VlanOp op = a.vlanOp();
        if (op == VlanOp.PUSH && a.rewriteMacs()) {
            // the new MACs and the tag go straight where the push puts them: two stores for the 16 bytes
            long srcMac = a.srcMac();
            data.set(U64, frame - 4, (a.dstMac() << 16) | ((srcMac >>> 32) & 0xFFFF));
            data.set(U64, frame + 4, (srcMac << 32) | ((long) FlowKey.ETHERTYPE_VLAN << 16) | (a.vlan() & 0xFFFF));
            m.frontMoved(firstWord, -4);
            return FORWARD;
        }
        if (a.rewriteMacs()) {
            writeMacs(data, frame, a.dstMac(), a.srcMac());
        }
        vlan(m, op, a.vlan());
        return FORWARD;
    }

    /**
     * Decrements the TTL (IPv4, updating the header checksum, RFC 1624) or the hop limit (IPv6) of the IP header
     * at {@code l3}; false, and nothing written, when it would reach 0.
     */
    private static boolean decrementedTtl(Mbuf m, MemorySegment data, long l3) {
        boolean v4 = FlowKey.ipVersion(m.descriptors().get(LONG, m.flowKeyAddress() + FlowKey.L4)) == 4;
        // the big-endian word from the header's fifth byte holds IPv4's TTL and checksum, IPv6's hop limit
        long word = data.get(U64, l3 + 4);
        int shift = v4 ? 24 : 32;
        if (((word >>> shift) & 0xFF) <= 1) {
            return false;
        }
        word -= 1L << shift;
        if (v4) {
            // TTL is the high byte of a 16-bit word: decrementing it raises the one's-complement sum by 0x100
            int sum = ((int) word & 0xFFFF) + 0x100;
            word = (word & ~0xFFFFL) | ((sum & 0xFFFF) + (sum >>> 16));
        }
        data.set(U64, l3 + 4, word);
        return true;
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
        data.set(U32, frame + 8, FlowKey.ETHERTYPE_VLAN << 16 | (vid & 0xFFFF));
        m.frontMoved(m.firstWord(), -4);
    }

    /** Keeps the priority bits of the tag control word at {@code tci}, replaces its VID. */
    private static void setVid(MemorySegment data, long tci, int vid) {
        data.set(U16, tci, (short) ((data.get(U16, tci) & 0xF000) | vid));
    }

    /** Removes the outer {@code tags} 802.1Q tags by moving the MACs over them. */
    private static void pop(Mbuf m, MemorySegment data, long frame, int tags) {
        int bytes = 4 * tags;
        moveMacs(data, frame, frame + bytes);
        m.frontMoved(m.firstWord(), bytes);
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
