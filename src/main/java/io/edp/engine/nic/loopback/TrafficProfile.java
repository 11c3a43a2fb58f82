package io.edp.engine.nic.loopback;

import io.edp.engine.slowpath.Cidr;
import io.edp.engine.slowpath.MacAddress;
import java.time.Duration;

/**
 * What a {@link TrafficGenerator} sends: {@code flows} flows in round robin, each a fixed 5-tuple carrying a
 * per-flow sequence number. Flow i has source {@code sourceBase + i} (IPv6: {@code fd00::i}) and destination
 * {@code destinationBase + (i % destinations) * 256 + 1} (IPv6: {@code fd01::(i % destinations):1}), so
 * destinations spread over /24 (IPv6: /112) prefixes. Protocol and family of a flow follow the percentages
 * (ICMP takes what UDP and TCP leave). {@code packetsPerSecond} 0 sends as fast as the rings take them;
 * {@code packets} 0 and a null {@code duration} mean no limit.
 */
public record TrafficProfile(int flows, int frameBytes, long packetsPerSecond, int udpPercent, int tcpPercent,
        int ipv6Percent, long packets, Duration duration, String sourceMac, String destinationMac, int vlan,
        String sourceBase, String destinationBase, int destinations, int firstFlowId) {

    public TrafficProfile {
        if (flows <= 0) {
            throw new IllegalArgumentException("flows must be positive: " + flows);
        }
        if (frameBytes < 60 || frameBytes > 1518) {
            throw new IllegalArgumentException("frameBytes must be 60..1518: " + frameBytes);
        }
        if (udpPercent < 0 || tcpPercent < 0 || udpPercent + tcpPercent > 100 || ipv6Percent < 0 || ipv6Percent > 100) {
            throw new IllegalArgumentException("protocol and family percentages must be 0..100 (udp + tcp <= 100)");
        }
        if (packetsPerSecond < 0 || packets < 0 || destinations <= 0 || firstFlowId < 0) {
            throw new IllegalArgumentException("packetsPerSecond, packets, firstFlowId must be >= 0, destinations > 0");
        }
        MacAddress.parse(sourceMac, "sourceMac");
        MacAddress.parse(destinationMac, "destinationMac");
        if (Cidr.parse(sourceBase, "sourceBase").version() != 4 || Cidr.parse(destinationBase, "destinationBase").version() != 4) {
            throw new IllegalArgumentException("sourceBase and destinationBase must be IPv4 addresses");
        }
    }

    /** 1,000 UDP/IPv4 flows of 64-byte frames, as fast as possible, forever, to 02:00:00:00:00:01. */
    public static TrafficProfile udp() {
        return new TrafficProfile(1_000, 64, 0, 100, 0, 0, 0, null, "02:00:00:00:00:aa", "02:00:00:00:00:01", 0,
                "10.0.0.0", "10.128.0.0", 1, 0);
    }

    public TrafficProfile withFlows(int count) {
        return new TrafficProfile(count, frameBytes, packetsPerSecond, udpPercent, tcpPercent, ipv6Percent, packets,
                duration, sourceMac, destinationMac, vlan, sourceBase, destinationBase, destinations, firstFlowId);
    }

    public TrafficProfile withFrameBytes(int bytes) {
        return new TrafficProfile(flows, bytes, packetsPerSecond, udpPercent, tcpPercent, ipv6Percent, packets,
                duration, sourceMac, destinationMac, vlan, sourceBase, destinationBase, destinations, firstFlowId);
    }

    public TrafficProfile withRate(long pps) {
        return new TrafficProfile(flows, frameBytes, pps, udpPercent, tcpPercent, ipv6Percent, packets,
                duration, sourceMac, destinationMac, vlan, sourceBase, destinationBase, destinations, firstFlowId);
    }

    public TrafficProfile withMix(int udp, int tcp, int ipv6) {
        return new TrafficProfile(flows, frameBytes, packetsPerSecond, udp, tcp, ipv6, packets,
                duration, sourceMac, destinationMac, vlan, sourceBase, destinationBase, destinations, firstFlowId);
    }

    public TrafficProfile withPackets(long count) {
        return new TrafficProfile(flows, frameBytes, packetsPerSecond, udpPercent, tcpPercent, ipv6Percent, count,
                duration, sourceMac, destinationMac, vlan, sourceBase, destinationBase, destinations, firstFlowId);
    }

    public TrafficProfile withDuration(Duration limit) {
        return new TrafficProfile(flows, frameBytes, packetsPerSecond, udpPercent, tcpPercent, ipv6Percent, packets,
                limit, sourceMac, destinationMac, vlan, sourceBase, destinationBase, destinations, firstFlowId);
    }

    public TrafficProfile withMacs(String source, String destination) {
        return new TrafficProfile(flows, frameBytes, packetsPerSecond, udpPercent, tcpPercent, ipv6Percent, packets,
                duration, source, destination, vlan, sourceBase, destinationBase, destinations, firstFlowId);
    }

    public TrafficProfile withVlan(int tag) {
        return new TrafficProfile(flows, frameBytes, packetsPerSecond, udpPercent, tcpPercent, ipv6Percent, packets,
                duration, sourceMac, destinationMac, tag, sourceBase, destinationBase, destinations, firstFlowId);
    }

    public TrafficProfile withAddresses(String source, String destination, int destinationCount) {
        return new TrafficProfile(flows, frameBytes, packetsPerSecond, udpPercent, tcpPercent, ipv6Percent, packets,
                duration, sourceMac, destinationMac, vlan, source, destination, destinationCount, firstFlowId);
    }

    public TrafficProfile withFirstFlowId(int id) {
        return new TrafficProfile(flows, frameBytes, packetsPerSecond, udpPercent, tcpPercent, ipv6Percent, packets,
                duration, sourceMac, destinationMac, vlan, sourceBase, destinationBase, destinations, id);
    }
}
