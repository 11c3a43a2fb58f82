package io.edp.engine.trace;

import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.InternetChecksum;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A packet described by its header fields, for a trace: {@link #frame()} builds the Ethernet frame (802.1Q tags,
 * outer first, the outer one of two as 802.1ad; IPv4 with its header checksum, or IPv6; then a TCP, UDP or ICMP
 * echo header, or nothing for another protocol) padded with zeros to {@code length} bytes.
 *
 * @param vlans    VLAN ids, outer first (at most two)
 * @param protocol an IP protocol number; ICMP and ICMPv6 carry an echo request
 * @param tcpFlags the TCP flags byte ({@link FlowKey#TCP_SYN} ...), for TCP only
 * @param length   the frame's length without FCS; a shorter one than the headers need is raised to it
 */
public record PacketFields(long sourceMac, long destinationMac, List<Integer> vlans, InetAddress source,
        InetAddress destination, int protocol, int sourcePort, int destinationPort, int tcpFlags, int ttl,
        int length) {

    /** The longest frame a trace builds: an untagged 1500-byte IP packet with two tags. */
    public static final int MAX_LENGTH = 1522;

    public PacketFields {
        vlans = List.copyOf(vlans);
        if (vlans.size() > 2) {
            throw new IllegalArgumentException("vlans: at most two tags (QinQ): " + vlans);
        }
        for (int vlan : vlans) {
            if (vlan < 1 || vlan > 4094) {
                throw new IllegalArgumentException("vlans: a VLAN id is 1..4094: " + vlan);
            }
        }
        if ((source instanceof Inet4Address) != (destination instanceof Inet4Address)) {
            throw new IllegalArgumentException("sourceIp and destinationIp must both be IPv4 or both IPv6");
        }
        if (protocol < 0 || protocol > 255 || ttl < 0 || ttl > 255 || length > MAX_LENGTH) {
            throw new IllegalArgumentException("protocol, ttl: 0..255, length: at most " + MAX_LENGTH);
        }
    }

    /** The frame's bytes. */
    public byte[] frame() {
        boolean ipv4 = source instanceof Inet4Address;
        int l4Header = switch (protocol) {
            case FlowKey.PROTO_TCP -> 20;
            case FlowKey.PROTO_UDP, FlowKey.PROTO_ICMP, FlowKey.PROTO_ICMPV6 -> 8;
            default -> 0;
        };
        int l3 = 14 + 4 * vlans.size();
        int l4 = l3 + (ipv4 ? 20 : 40);
        ByteBuffer b = ByteBuffer.allocate(Math.max(length, l4 + l4Header));
        b.putShort((short) (destinationMac >>> 32)).putInt((int) destinationMac)
                .putShort((short) (sourceMac >>> 32)).putInt((int) sourceMac);
        for (int i = 0; i < vlans.size(); i++) {
            boolean outerOfTwo = i == 0 && vlans.size() == 2;
            b.putShort((short) (outerOfTwo ? FlowKey.ETHERTYPE_QINQ : FlowKey.ETHERTYPE_VLAN))
                    .putShort(vlans.get(i).shortValue());
        }
        int ipLength = b.capacity() - l3;
        if (ipv4) {
            b.putShort((short) FlowKey.ETHERTYPE_IPV4).put((byte) 0x45).put((byte) 0).putShort((short) ipLength)
                    .putShort((short) 0).putShort((short) 0).put((byte) ttl).put((byte) protocol).putShort((short) 0)
                    .put(source.getAddress()).put(destination.getAddress());
            MemorySegment header = MemorySegment.ofArray(b.array());
            b.putShort(l3 + 10, InternetChecksum.finish(InternetChecksum.add(0, header, l3, 20)));
        } else {
            b.putShort((short) FlowKey.ETHERTYPE_IPV6).putInt(6 << 28).putShort((short) (ipLength - 40))
                    .put((byte) protocol).put((byte) ttl).put(source.getAddress()).put(destination.getAddress());
        }
        switch (protocol) {
            case FlowKey.PROTO_TCP -> b.putShort((short) sourcePort).putShort((short) destinationPort).putInt(1)
                    .putInt((tcpFlags & FlowKey.TCP_ACK) != 0 ? 1 : 0).put((byte) 0x50).put((byte) tcpFlags)
                    .putShort((short) 0xFFFF).putInt(0);
            case FlowKey.PROTO_UDP -> b.putShort((short) sourcePort).putShort((short) destinationPort)
                    .putShort((short) (b.capacity() - l4)).putShort((short) 0);
            case FlowKey.PROTO_ICMP, FlowKey.PROTO_ICMPV6 -> b.put((byte) (ipv4 ? 8 : 128)).put((byte) 0)
                    .putShort((short) 0).putShort((short) sourcePort).putShort((short) 1);
            default -> {
            }
        }
        return b.array();
    }
}
