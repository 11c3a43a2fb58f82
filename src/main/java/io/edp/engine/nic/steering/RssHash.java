package io.edp.engine.nic.steering;

import java.lang.foreign.MemorySegment;

/**
 * The RSS hash a NIC computes for a received frame: Toeplitz over source and destination IP address, plus the
 * TCP/UDP ports when {@code hashPorts} is set and the packet is not a fragment (a fragment has no ports, and
 * every fragment of a datagram must land on the same queue). Non-IP frames hash to 0, as on hardware.
 * IPv6 extension headers are not walked: such packets hash on addresses only.
 */
final class RssHash {

    private static final int PROTOCOL_TCP = 6;
    private static final int PROTOCOL_UDP = 17;
    private static final int IPV4_HEADER_BYTES = 20;
    private static final int IPV6_HEADER_BYTES = 40;
    private static final int PORTS_BYTES = 4;

    private final ToeplitzHash toeplitz;
    private final boolean hashPorts;

    RssHash(ToeplitzHash toeplitz, boolean hashPorts) {
        this.toeplitz = toeplitz;
        this.hashPorts = hashPorts;
    }

    int hash(MemorySegment frame, long offset, int length) {
        int etherType = EthernetFrame.etherType(frame, offset, length);
        int l3 = EthernetFrame.l3Offset(frame, offset, length);
        if (etherType == EthernetFrame.ETHERTYPE_IPV4 && length >= l3 + IPV4_HEADER_BYTES) {
            return ipv4(frame, offset + l3, length - l3);
        }
        if (etherType == EthernetFrame.ETHERTYPE_IPV6 && length >= l3 + IPV6_HEADER_BYTES) {
            return ipv6(frame, offset + l3, length - l3);
        }
        return 0;
    }

    private int ipv4(MemorySegment frame, long ip, int length) {
        int hash = toeplitz.accumulate(0, 0, frame, ip + 12, 8);
        int headerBytes = (EthernetFrame.u8(frame, ip) & 0x0f) * 4;
        boolean fragment = (EthernetFrame.u16(frame, ip + 6) & 0x3fff) != 0;
        if (!fragment && carriesPorts(EthernetFrame.u8(frame, ip + 9)) && length >= headerBytes + PORTS_BYTES) {
            hash = toeplitz.accumulate(hash, 8, frame, ip + headerBytes, PORTS_BYTES);
        }
        return hash;
    }

    private int ipv6(MemorySegment frame, long ip, int length) {
        int hash = toeplitz.accumulate(0, 0, frame, ip + 8, 32);
        if (carriesPorts(EthernetFrame.u8(frame, ip + 6)) && length >= IPV6_HEADER_BYTES + PORTS_BYTES) {
            hash = toeplitz.accumulate(hash, 32, frame, ip + IPV6_HEADER_BYTES, PORTS_BYTES);
        }
        return hash;
    }

    private boolean carriesPorts(int protocol) {
        return hashPorts && (protocol == PROTOCOL_TCP || protocol == PROTOCOL_UDP);
    }
}
