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
 * The router's answers to frames for its own addresses: an ARP reply (RFC 826), a neighbor advertisement with the
 * router, solicited and override flags and the target link-layer address option (RFC 4861 4.4, 7.2.4), an ICMP
 * or ICMPv6 echo reply (RFC 792, RFC 4443 4.2). Each goes back the way the request came: to its source MAC, from
 * the router MAC, with the VLAN tags as they arrived. Stateless and allocation-free.
 */
final class RouterReply {

    /** {@link #kind} results. */
    static final int NONE = 0;
    static final int ARP_REPLY = 1;
    static final int NEIGHBOR_ADVERTISEMENT = 2;
    static final int ECHO_REPLY = 3;

    static final int TTL = 64;
    static final int ND_HOP_LIMIT = 255;
    /** The shortest Ethernet frame without its FCS: shorter answers are padded with zeros. */
    static final int MINIMUM_FRAME = 60;

    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int ARP_BYTES = 28;
    private static final int IPV4_HEADER = 20;
    private static final int IPV6_HEADER = 40;
    private static final int NA_BYTES = 32;
    private static final int ECHO_REQUEST = 8;
    private static final int ECHO_REPLY_TYPE = 0;
    private static final int ECHOV6_REQUEST = 128;
    private static final int ECHOV6_REPLY = 129;
    private static final int NEIGHBOR_SOLICITATION = 135;
    private static final int NEIGHBOR_ADVERTISEMENT_TYPE = 136;
    /** Router, Solicited, Override. */
    private static final int NA_FLAGS = 0xE000_0000;
    private static final int TARGET_LINK_LAYER_ADDRESS = 2;

    private RouterReply() {
    }

    /**
     * What a frame the IOChain found to be for the router gets: an ARP request for Ethernet and IPv4, a neighbor
     * solicitation with hop limit 255 from a unicast address, an unfragmented echo request; anything else
     * {@link #NONE}.
     */
    static int kind(Mbuf m) {
        MemorySegment data = m.data();
        long l3 = m.dataAddress() + m.l3Offset();
        long l4Word = m.descriptors().get(LONG, m.flowKeyAddress() + FlowKey.L4);
        int type = FlowKey.srcPort(l4Word);
        if ((FlowKey.flags(m.descriptors(), m.flowKeyAddress()) & FlowKey.FLAG_FRAGMENT) != 0) {
            return NONE;
        }
        return switch (FlowKey.ipVersion(l4Word)) {
            case 0 -> data.get(U16, l3) == 1 && data.get(U16, l3 + 2) == FlowKey.ETHERTYPE_IPV4
                    && data.get(U16, l3 + 4) == 0x0604 && data.get(U16, l3 + 6) == 1 ? ARP_REPLY : NONE;
            case 4 -> FlowKey.proto(l4Word) == FlowKey.PROTO_ICMP && type == ECHO_REQUEST ? ECHO_REPLY : NONE;
            case 6 -> {
                if (FlowKey.proto(l4Word) != FlowKey.PROTO_ICMPV6) {
                    yield NONE;
                }
                if (type == ECHOV6_REQUEST) {
                    yield ECHO_REPLY;
                }
                boolean unspecifiedSource = data.get(LONG, l3 + 8) == 0 && data.get(LONG, l3 + 16) == 0;
                yield type == NEIGHBOR_SOLICITATION && (data.get(BYTE, l3 + 7) & 0xFF) == ND_HOP_LIMIT
                        && !unspecifiedSource ? NEIGHBOR_ADVERTISEMENT : NONE;
            }
            default -> NONE;
        };
    }

    /** Writes the {@code kind} answer to {@code m} from {@code routerMac} into the empty buffer {@code reply}. */
    static void write(int kind, Mbuf m, Mbuf reply, long routerMac) {
        MemorySegment data = m.data();
        long frame = m.dataAddress();
        int l2 = m.l3Offset();
        long l3 = frame + l2;
        MemorySegment out = reply.data();
        long r = reply.dataAddress();
        MemorySegment.copy(data, frame + 6, out, r, 6);
        writeMac(out, r + 6, routerMac);
        MemorySegment.copy(data, frame + 12, out, r + 12, l2 - 12); // VLAN tags and EtherType as they came
        long ip = r + l2;
        int length = switch (kind) {
            case ARP_REPLY -> arpReply(data, l3, out, ip, routerMac);
            case NEIGHBOR_ADVERTISEMENT -> neighborAdvertisement(data, l3, frame + m.l4Offset(), out, ip, routerMac);
            default -> echoReply(m, data, l3, out, ip);
        };
        int frameLength = l2 + length;
        if (frameLength < MINIMUM_FRAME) {
            out.asSlice(r + frameLength, MINIMUM_FRAME - frameLength).fill((byte) 0);
            frameLength = MINIMUM_FRAME;
        }
        int ipHeader = kind == ARP_REPLY ? 0 : (out.get(BYTE, ip) & 0xF0) == 0x40 ? IPV4_HEADER : IPV6_HEADER;
        reply.dataLength(frameLength).port(m.port()).l3Offset(l2).l4Offset(kind == ARP_REPLY ? 0 : l2 + ipHeader);
    }

    /** {@code <op=reply, sha=router, spa=requested, tha=sha, tpa=spa>}. */
    private static int arpReply(MemorySegment data, long arp, MemorySegment out, long at, long routerMac) {
        out.set(U64, at, 0x0001_0800_0604_0002L); // Ethernet, IPv4, 6, 4, reply
        writeMac(out, at + 8, routerMac);
        out.set(U32, at + 14, data.get(U32, arp + 24));
        MemorySegment.copy(data, arp + 8, out, at + 18, 10); // the requester's MAC and address
        return ARP_BYTES;
    }

    private static int neighborAdvertisement(MemorySegment data, long l3, long l4, MemorySegment out, long ip,
            long routerMac) {
        out.set(U32, ip, 6 << 28);
        out.set(U16, ip + 4, (short) NA_BYTES);
        out.set(BYTE, ip + 6, (byte) FlowKey.PROTO_ICMPV6);
        out.set(BYTE, ip + 7, (byte) ND_HOP_LIMIT);
        MemorySegment.copy(data, l4 + 8, out, ip + 8, 16); // from the target, the gateway address
        MemorySegment.copy(data, l3 + 8, out, ip + 24, 16); // to the solicitation's source
        long at = ip + IPV6_HEADER;
        out.set(U32, at, NEIGHBOR_ADVERTISEMENT_TYPE << 24);
        out.set(U32, at + 4, NA_FLAGS);
        MemorySegment.copy(data, l4 + 8, out, at + 8, 16);
        out.set(BYTE, at + 24, (byte) TARGET_LINK_LAYER_ADDRESS);
        out.set(BYTE, at + 25, (byte) 1); // in units of 8 bytes
        writeMac(out, at + 26, routerMac);
        checksum6(out, ip, at, NA_BYTES);
        return IPV6_HEADER + NA_BYTES;
    }

    /** The request's ICMP message with the reply type, from its destination back to its source. */
    private static int echoReply(Mbuf m, MemorySegment data, long l3, MemorySegment out, long ip) {
        long l4 = m.dataAddress() + m.l4Offset();
        if (FlowKey.ipVersion(m.descriptors().get(LONG, m.flowKeyAddress() + FlowKey.L4)) == 4) {
            int message = (int) (l3 + (data.get(U16, l3 + 2) & 0xFFFF) - l4);
            out.set(U32, ip, 0x4500_0000 | (IPV4_HEADER + message));
            out.set(U32, ip + 4, 0);
            out.set(U32, ip + 8, (TTL << 24) | (FlowKey.PROTO_ICMP << 16));
            out.set(U32, ip + 12, data.get(U32, l3 + 16));
            out.set(U32, ip + 16, data.get(U32, l3 + 12));
            out.set(U16, ip + 10, InternetChecksum.finish(InternetChecksum.add(0, out, ip, IPV4_HEADER)));
            long at = ip + IPV4_HEADER;
            MemorySegment.copy(data, l4, out, at, message);
            out.set(BYTE, at, (byte) ECHO_REPLY_TYPE);
            out.set(U16, at + 2, (short) 0);
            out.set(U16, at + 2, InternetChecksum.finish(InternetChecksum.add(0, out, at, message)));
            return IPV4_HEADER + message;
        }
        int message = (int) (l3 + IPV6_HEADER + (data.get(U16, l3 + 4) & 0xFFFF) - l4);
        out.set(U32, ip, 6 << 28);
        out.set(U16, ip + 4, (short) message);
        out.set(BYTE, ip + 6, (byte) FlowKey.PROTO_ICMPV6);
        out.set(BYTE, ip + 7, (byte) TTL);
        MemorySegment.copy(data, l3 + 24, out, ip + 8, 16);
        MemorySegment.copy(data, l3 + 8, out, ip + 24, 16);
        long at = ip + IPV6_HEADER;
        MemorySegment.copy(data, l4, out, at, message);
        out.set(BYTE, at, (byte) ECHOV6_REPLY);
        checksum6(out, ip, at, message);
        return IPV6_HEADER + message;
    }

    /** Sets the checksum of the {@code length}-byte ICMPv6 message at {@code at} under the IPv6 header {@code ip}. */
    private static void checksum6(MemorySegment out, long ip, long at, int length) {
        out.set(U16, at + 2, (short) 0);
        long sum = InternetChecksum.add(FlowKey.PROTO_ICMPV6 + length, out, ip + 8, 32);
        out.set(U16, at + 2, InternetChecksum.finish(InternetChecksum.add(sum, out, at, length)));
    }

    private static void writeMac(MemorySegment out, long at, long mac) {
        out.set(U16, at, (short) (mac >>> 32));
        out.set(U32, at + 2, (int) mac);
    }
}
