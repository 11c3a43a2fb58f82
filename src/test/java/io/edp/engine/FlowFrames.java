package io.edp.engine;

import io.edp.engine.ModelNetwork.Flow;
import io.edp.engine.ModelNetwork.Host;
import io.edp.engine.ModelNetwork.Protocol;
import io.edp.engine.ModelNetwork.Tagging;
import io.edp.engine.packet.FlowKey;
import java.nio.ByteBuffer;

/**
 * The frames of a {@link Flow} as they arrive on the sender's port: Ethernet with its tags, IPv4 (with a correct
 * header checksum, which the engine's TTL rewrite updates incrementally) or IPv6, then TCP, UDP or ICMP echo, or
 * a fragment of such a datagram. An 8-byte payload carries a sequence number, so frames of one flow differ.
 */
final class FlowFrames {

    /** A frame and the port it enters the engine on. */
    record Ingress(int port, byte[] frame) {
    }

    /** The payload most frames carry: the sequence number. */
    static final int PAYLOAD = 8;

    private FlowFrames() {
    }

    static Host sender(Flow flow, boolean reply) {
        return reply ? flow.pair().responder : flow.pair().initiator;
    }

    static Host receiver(Flow flow, boolean reply) {
        return reply ? flow.pair().initiator : flow.pair().responder;
    }

    /** The VLAN tags (outer first) of a frame the sender puts on its link. */
    static int[] tags(Host from, Tagging tagging) {
        return switch (tagging) {
            case LINK -> from.linkVlan == 0 ? new int[0] : new int[] {from.linkVlan};
            case QINQ -> new int[] {from.linkVlan == 0 ? 40 : from.linkVlan, ModelNetwork.INNER_VLAN};
            case UNTAGGED -> new int[0];
        };
    }

    /** A whole datagram of the flow; {@code kind} picks the TCP flags (see {@link ModelNetwork#tcpFlags}). */
    static Ingress packet(Flow flow, boolean reply, int kind, Tagging tagging, int ttl, int seq) {
        return packet(flow, reply, kind, tagging, ttl, seq, PAYLOAD);
    }

    /** The same with {@code payload} bytes (at least {@value #PAYLOAD}: the sequence number, then zeros). */
    static Ingress packet(Flow flow, boolean reply, int kind, Tagging tagging, int ttl, int seq, int payload) {
        Host from = sender(flow, reply);
        return new Ingress(from.port, packet(flow, reply, kind, tags(from, tagging), from.mac,
                from.macTowards(receiver(flow, reply)), ttl, seq, payload));
    }

    /** The same datagram with the given L2 header and TTL, e.g. as a router must emit it. */
    static byte[] packet(Flow flow, boolean reply, int kind, int[] tags, long srcMac, long dstMac, int ttl, int seq) {
        return packet(flow, reply, kind, tags, srcMac, dstMac, ttl, seq, PAYLOAD);
    }

    private static byte[] packet(Flow flow, boolean reply, int kind, int[] tags, long srcMac, long dstMac, int ttl,
            int seq, int payload) {
        ByteBuffer l4 = ByteBuffer.allocate(64 + payload);
        transportHeader(l4, flow, reply, kind, payload);
        l4.putLong(seq);
        l4.position(l4.position() + payload - PAYLOAD);
        return frame(flow, reply, tags, srcMac, dstMac, ttl, -1, 0, false, l4);
    }

    /**
     * Fragment {@code offsetUnits} (in 8-byte units; 0 is the first, which carries the transport header) of the
     * datagram {@code ipId} of the flow; {@code more} sets the more-fragments flag.
     */
    static Ingress fragment(Flow flow, boolean reply, int offsetUnits, boolean more, int ipId, Tagging tagging,
            int seq) {
        Host from = sender(flow, reply);
        ByteBuffer l4 = ByteBuffer.allocate(64);
        if (offsetUnits == 0) {
            // the header and enough payload to end on an 8-byte boundary, as every fragment but the last must; a
            // UDP length as if two 8-byte fragments followed
            int header = transportHeaderBytes(flow.protocol());
            transportHeader(l4, flow, reply, 0, 16);
            l4.put(new byte[(header + 7) / 8 * 8 - header]);
        } else {
            l4.putLong(seq);
        }
        return new Ingress(from.port, frame(flow, reply, tags(from, tagging), from.mac,
                from.macTowards(receiver(flow, reply)), 64, ipId, offsetUnits, more, l4));
    }

    private static int transportHeaderBytes(Protocol protocol) {
        return protocol == Protocol.TCP ? 20 : 8;
    }

    private static void transportHeader(ByteBuffer b, Flow flow, boolean reply, int kind, int payload) {
        int sport = reply ? flow.destinationPort() : flow.sourcePort();
        int dport = reply ? flow.sourcePort() : flow.destinationPort();
        switch (flow.protocol()) {
            case UDP -> b.putShort((short) sport).putShort((short) dport).putShort((short) (8 + payload))
                    .putShort((short) 0);
            case TCP -> b.putShort((short) sport).putShort((short) dport).putInt(1000).putInt(reply ? 1001 : 0)
                    .put((byte) 0x50).put((byte) ModelNetwork.tcpFlags(kind)).putShort((short) 0xFFFF).putInt(0);
            case ICMP -> {
                int type = flow.ipv6() ? (reply ? 129 : 128) : (reply ? 0 : 8);
                b.put((byte) type).put((byte) 0).putShort((short) 0).putShort((short) flow.sourcePort())
                        .putShort((short) 1);
            }
        }
    }

    private static int ipProtocol(Flow flow) {
        return switch (flow.protocol()) {
            case UDP -> FlowKey.PROTO_UDP;
            case TCP -> FlowKey.PROTO_TCP;
            case ICMP -> flow.ipv6() ? FlowKey.PROTO_ICMPV6 : FlowKey.PROTO_ICMP;
        };
    }

    /** Ethernet, tags, then the IP header (a fragment when {@code ipId >= 0}) and {@code l4[0, position)}. */
    private static byte[] frame(Flow flow, boolean reply, int[] tags, long srcMac, long dstMac, int ttl, int ipId,
            int offsetUnits, boolean more, ByteBuffer l4) {
        Host from = sender(flow, reply);
        Host to = receiver(flow, reply);
        int l4Length = l4.position();
        ByteBuffer b = ByteBuffer.allocate(128 + l4Length);
        b.putShort((short) (dstMac >>> 32)).putInt((int) dstMac).putShort((short) (srcMac >>> 32)).putInt((int) srcMac);
        for (int i = 0; i < tags.length; i++) {
            boolean outerOfTwo = i == 0 && tags.length == 2;
            b.putShort((short) (outerOfTwo ? FlowKey.ETHERTYPE_QINQ : FlowKey.ETHERTYPE_VLAN))
                    .putShort((short) tags[i]);
        }
        boolean fragment = ipId >= 0;
        int fragmentField = offsetUnits | (more ? 0x2000 : 0);
        if (flow.ipv6()) {
            b.putShort((short) FlowKey.ETHERTYPE_IPV6);
            b.putInt(6 << 28).putShort((short) (l4Length + (fragment ? 8 : 0)))
                    .put((byte) (fragment ? 44 : ipProtocol(flow))).put((byte) ttl);
            b.putLong(from.ipv6Hi).putLong(from.ipv6Lo).putLong(to.ipv6Hi).putLong(to.ipv6Lo);
            if (fragment) {
                b.put((byte) ipProtocol(flow)).put((byte) 0).putShort((short) (offsetUnits << 3 | (more ? 1 : 0)))
                        .putInt(ipId);
            }
        } else {
            b.putShort((short) FlowKey.ETHERTYPE_IPV4);
            int ip = b.position();
            b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + l4Length)).putShort((short) Math.max(ipId, 0))
                    .putShort((short) (fragment ? fragmentField : 0)).put((byte) ttl).put((byte) ipProtocol(flow))
                    .putShort((short) 0).putInt(from.ipv4).putInt(to.ipv4);
            b.putShort(ip + 10, (short) checksum(b, ip, 20));
        }
        b.put(l4.array(), 0, l4Length);
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    /** The Internet checksum (RFC 1071) of {@code length} bytes at {@code from}. */
    private static int checksum(ByteBuffer b, int from, int length) {
        int sum = 0;
        for (int i = 0; i < length; i += 2) {
            sum += b.getShort(from + i) & 0xFFFF;
        }
        while (sum >>> 16 != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }
}
