package io.edp.engine.packet;

import static io.edp.engine.packet.NetworkOrder.U16;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.slowpath.Action;
import io.edp.engine.slowpath.VlanOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Executes an {@link Action}'s header rewrites on a parsed frame: TTL / hop-limit decrement (with an incremental
 * IPv4 checksum update, RFC 1624), MAC rewrite, then VLAN push / pop / set using the mbuf headroom. Used by the
 * fast path and the slow path alike, so both produce identical frames.
 */
public final class FrameRewriter {

    /** {@link #apply} result: the frame is ready to transmit. */
    public static final int FORWARD = -1;

    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private FrameRewriter() {
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
        if (a.rewriteMacs()) {
            writeMac(data, frame, a.dstMac());
            writeMac(data, frame + 6, a.srcMac());
        }
        VlanOp op = a.vlanOp();
        if (op == VlanOp.PUSH) {
            moveMacs(data, frame, frame - 4);
            data.set(U16, frame + 8, (short) FlowKey.ETHERTYPE_VLAN);
            data.set(U16, frame + 10, (short) a.vlan());
            m.dataOffset(m.dataOffset() - 4).dataLength(m.dataLength() + 4);
            m.l3Offset(m.l3Offset() + 4);
        } else if (op == VlanOp.POP) {
            moveMacs(data, frame, frame + 4);
            m.dataOffset(m.dataOffset() + 4).dataLength(m.dataLength() - 4);
            m.l3Offset(m.l3Offset() - 4);
        } else if (op == VlanOp.SET) {
            int tci = data.get(U16, frame + 14) & 0xF000;
            data.set(U16, frame + 14, (short) (tci | a.vlan()));
        }
        return FORWARD;
    }

    /** Moves the 12 MAC bytes (overlapping moves included: both words are read before writing). */
    private static void moveMacs(MemorySegment data, long from, long to) {
        long first = data.get(LONG, from);
        int rest = data.get(ValueLayout.JAVA_INT_UNALIGNED, from + 8);
        data.set(LONG, to, first);
        data.set(ValueLayout.JAVA_INT_UNALIGNED, to + 8, rest);
    }

    private static void writeMac(MemorySegment data, long at, long mac) {
        data.set(U16, at, (short) (mac >>> 32));
        data.set(U16, at + 2, (short) (mac >>> 16));
        data.set(U16, at + 4, (short) mac);
    }
}
