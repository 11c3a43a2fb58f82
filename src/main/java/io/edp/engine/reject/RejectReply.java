package io.edp.engine.reject;

import static io.edp.engine.packet.NetworkOrder.U16;
import static io.edp.engine.packet.NetworkOrder.U32;
import static io.edp.engine.packet.NetworkOrder.U64;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.InternetChecksum;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The answer to a packet a REJECT rule refused, written as the destination would have answered it: a TCP reset
 * for TCP (RFC 9293 3.10.7.1), otherwise ICMP destination unreachable, "communication administratively
 * prohibited" (type 3 code 13, quoting the offending IP header and 8 bytes) or ICMPv6 destination unreachable,
 * "administratively prohibited" (type 1 code 1, quoting as much of the offending packet as fits in the IPv6
 * minimum MTU). The reply goes back the way the packet came: Ethernet addresses swapped, the VLAN tags as they
 * arrived, IP addresses and ports swapped. Reads only the parsed packet (never slow-path state), so the fast
 * path and the slow path answer alike. Stateless and allocation-free.
 */
final class RejectReply {

    /** {@link #kind} results. */
    static final int NONE = 0;
    static final int TCP_RESET = 1;
    static final int UNREACHABLE = 2;

    static final int TTL = 64;
    static final int IPV6_MINIMUM_MTU = 1280;
    static final int ICMP_UNREACHABLE = 3;
    static final int ICMP_ADMINISTRATIVELY_PROHIBITED = 13;
    static final int ICMPV6_UNREACHABLE = 1;
    static final int ICMPV6_ADMINISTRATIVELY_PROHIBITED = 1;

    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int IPV4_HEADER = 20;
    private static final int IPV6_HEADER = 40;
    private static final int TCP_HEADER = 20;
    private static final int ICMP_HEADER = 8;
    private static final int IPV4_QUOTED_PAYLOAD = 8;

    private RejectReply() {
    }

    /**
     * What the rejected packet of {@code m} gets: {@link #NONE} where a host sends no error either (RFC 1122
     * 3.2.2, RFC 4443 2.4(e), RFC 9293: a reset or an ICMP error, a group or unspecified address) and for a later
     * fragment (the first fragment of its datagram is answered), else {@link #TCP_RESET} or {@link #UNREACHABLE}.
     */
    static int kind(Mbuf m) {
        MemorySegment data = m.data();
        long frame = m.dataAddress();
        long l3 = frame + m.l3Offset();
        long l4Word = m.descriptors().get(LONG, m.flowKeyAddress() + FlowKey.L4);
        int proto = FlowKey.proto(l4Word);
        int type = FlowKey.srcPort(l4Word);
        if ((data.get(BYTE, frame) & 1) != 0) {
            return NONE; // group destination MAC
        }
        if ((FlowKey.flags(m.descriptors(), m.flowKeyAddress()) & FlowKey.FLAG_LATER_FRAGMENT) != 0) {
            return NONE; // the first fragment of its datagram is answered
        }
        switch (FlowKey.ipVersion(l4Word)) {
            case 4 -> {
                int src = data.get(U32, l3 + 12);
                int dst = data.get(U32, l3 + 16);
                if (src == 0 || isGroup4(src) || isGroup4(dst)) {
                    return NONE;
                }
                if (proto == FlowKey.PROTO_ICMP && (type == 3 || type == 4 || type == 5 || type == 11 || type == 12)) {
                    return NONE;
                }
            }
            case 6 -> {
                boolean unspecifiedSource = data.get(LONG, l3 + 8) == 0 && data.get(LONG, l3 + 16) == 0;
                if (data.get(BYTE, l3 + 24) == (byte) 0xFF || unspecifiedSource) {
                    return NONE;
                }
                if (proto == FlowKey.PROTO_ICMPV6 && (type < 128 || type == 137)) {
                    return NONE; // errors and redirects
                }
            }
            default -> {
                return NONE;
            }
        }
        if (proto != FlowKey.PROTO_TCP) {
            return UNREACHABLE;
        }
        return (FlowKey.tcpFlags(m.descriptors(), m.flowKeyAddress()) & FlowKey.TCP_RST) != 0 ? NONE : TCP_RESET;
    }

    /** Limited broadcast, multicast or class E: no ICMP error to or about them. */
    private static boolean isGroup4(int address) {
        return (address >>> 28) >= 0xE;
    }

    /** Writes the {@code kind} answer to {@code m} into the empty buffer {@code reply}. */
    static void write(int kind, Mbuf m, Mbuf reply) {
        MemorySegment d = m.descriptors();
        long key = m.flowKeyAddress();
        boolean v4 = FlowKey.ipVersion(d.get(LONG, key + FlowKey.L4)) == 4;
        write(kind, m, reply, v4 ? ICMP_UNREACHABLE : ICMPV6_UNREACHABLE,
                v4 ? ICMP_ADMINISTRATIVELY_PROHIBITED : ICMPV6_ADMINISTRATIVELY_PROHIBITED, 0,
                d.get(LONG, key + FlowKey.DST_HI), d.get(LONG, key + FlowKey.DST_LO));
    }

    /**
     * Writes an answer to {@code m} into the empty buffer {@code reply}: a TCP reset, or an ICMP / ICMPv6 error of
     * {@code type} and {@code code} whose second word is {@code word} (an MTU, or 0), from the address
     * ({@code srcHi}, {@code srcLo}) in the flow key's form.
     */
    static void write(int kind, Mbuf m, Mbuf reply, int type, int code, int word, long srcHi, long srcLo) {
        MemorySegment data = m.data();
        long frame = m.dataAddress();
        int l2 = m.l3Offset();
        long l3 = frame + l2;
        long l4 = frame + m.l4Offset();
        long l4Word = m.descriptors().get(LONG, m.flowKeyAddress() + FlowKey.L4);
        boolean v4 = FlowKey.ipVersion(l4Word) == 4;
        long ipEnd = l3 + (v4 ? data.get(U16, l3 + 2) & 0xFFFF : IPV6_HEADER + (data.get(U16, l3 + 4) & 0xFFFF));

        MemorySegment out = reply.data();
        long r = reply.dataAddress();
        MemorySegment.copy(data, frame + 6, out, r, 6);
        MemorySegment.copy(data, frame, out, r + 6, 6);
        MemorySegment.copy(data, frame + 12, out, r + 12, l2 - 12); // VLAN tags and EtherType as they came
        long ip = r + l2;
        int ipHeader = v4 ? IPV4_HEADER : IPV6_HEADER;
        long at = ip + ipHeader;
        int payload;
        int proto;
        if (kind == TCP_RESET) {
            payload = TCP_HEADER;
            proto = FlowKey.PROTO_TCP;
            tcpReset(data, l4, ipEnd, out, at);
        } else {
            int quoted = (int) Math.min(ipEnd - l3, v4 ? (data.get(BYTE, l3) & 0xF) * 4 + IPV4_QUOTED_PAYLOAD
                    : IPV6_MINIMUM_MTU - IPV6_HEADER - ICMP_HEADER);
            payload = ICMP_HEADER + quoted;
            proto = v4 ? FlowKey.PROTO_ICMP : FlowKey.PROTO_ICMPV6;
            out.set(BYTE, at, (byte) type);
            out.set(BYTE, at + 1, (byte) code);
            out.set(U16, at + 2, (short) 0);
            out.set(U32, at + 4, word);
            MemorySegment.copy(data, l3, out, at + ICMP_HEADER, quoted);
        }
        long pseudo;
        if (v4) {
            out.set(U32, ip, 0x4500_0000 | (IPV4_HEADER + payload));
            out.set(U32, ip + 4, 0x4000); // identification 0, don't fragment
            out.set(U32, ip + 8, (TTL << 24) | (proto << 16));
            out.set(U32, ip + 12, (int) (srcHi >>> 32));
            out.set(U32, ip + 16, data.get(U32, l3 + 12));
            out.set(U16, ip + 10, InternetChecksum.finish(InternetChecksum.add(0, out, ip, IPV4_HEADER)));
            pseudo = InternetChecksum.add(proto + payload, out, ip + 12, 8);
        } else {
            out.set(U32, ip, 6 << 28);
            out.set(U16, ip + 4, (short) payload);
            out.set(BYTE, ip + 6, (byte) proto);
            out.set(BYTE, ip + 7, (byte) TTL);
            out.set(U64, ip + 8, srcHi);
            out.set(U64, ip + 16, srcLo);
            MemorySegment.copy(data, l3 + 8, out, ip + 24, 16);
            pseudo = InternetChecksum.add(proto + payload, out, ip + 8, 32);
        }
        // ICMP's checksum covers the message only; TCP's and ICMPv6's include the pseudo-header
        long sum = InternetChecksum.add(proto == FlowKey.PROTO_ICMP ? 0 : pseudo, out, at, payload);
        out.set(U16, at + (kind == TCP_RESET ? 16 : 2), InternetChecksum.finish(sum));
        reply.dataLength(l2 + ipHeader + payload).port(m.port()).l3Offset(l2).l4Offset(l2 + ipHeader);
    }

    /**
     * The reset for the segment at {@code l4}: a segment with ACK gets {@code <SEQ=SEG.ACK><CTL=RST>}, one without
     * gets {@code <SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>}, SYN and FIN counting one each.
     */
    private static void tcpReset(MemorySegment data, long l4, long ipEnd, MemorySegment out, long at) {
        int flags = data.get(BYTE, l4 + 13) & 0xFF;
        int seq;
        int ack;
        int replyFlags;
        if ((flags & FlowKey.TCP_ACK) != 0) {
            seq = data.get(U32, l4 + 8);
            ack = 0;
            replyFlags = FlowKey.TCP_RST;
        } else {
            int length = (int) (ipEnd - l4) - ((data.get(BYTE, l4 + 12) & 0xF0) >>> 2)
                    + ((flags & FlowKey.TCP_SYN) != 0 ? 1 : 0) + ((flags & FlowKey.TCP_FIN) != 0 ? 1 : 0);
            seq = 0;
            ack = data.get(U32, l4 + 4) + length;
            replyFlags = FlowKey.TCP_RST | FlowKey.TCP_ACK;
        }
        out.set(U16, at, data.get(U16, l4 + 2));
        out.set(U16, at + 2, data.get(U16, l4));
        out.set(U32, at + 4, seq);
        out.set(U32, at + 8, ack);
        out.set(U16, at + 12, (short) ((TCP_HEADER / 4) << 12 | replyFlags));
        out.set(U32, at + 14, 0); // window 0, checksum 0 until summed
        out.set(U16, at + 18, (short) 0);
    }
}
