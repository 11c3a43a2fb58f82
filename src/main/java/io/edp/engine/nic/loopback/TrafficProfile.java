package io.edp.engine.nic.loopback;

import io.edp.engine.slowpath.Cidr;
import io.edp.engine.slowpath.MacAddress;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * What a {@link TrafficGenerator} sends: {@code flows} flows in round robin, each a fixed 5-tuple carrying a
 * per-flow sequence number. Flow i has source {@code sourceBase + s} (IPv6: {@code fd00::s}) with s = i, or
 * i % {@code sources} when {@code sources} is not 0, and destination {@code destinationBase + (i % destinations)
 * * 256 + 1} (IPv6: {@code fd01::(i % destinations):1}), so destinations spread over /24 (IPv6: /112) prefixes.
 * Its ports are 1024 + i % 60,000 and the protocol's port (5001 for UDP, 80 for TCP) + i / 60,000, so flows
 * between one pair of addresses stay distinct. Protocol and family of a flow follow the percentages (ICMP takes
 * what UDP and TCP leave). {@code packetsPerSecond} 0 sends as fast as the rings take them; {@code packets} 0
 * and a null {@code duration} mean no limit.
 */
public record TrafficProfile(int flows, int frameBytes, long packetsPerSecond, int udpPercent, int tcpPercent,
        int ipv6Percent, long packets, Duration duration, String sourceMac, String destinationMac, int vlan,
        String sourceBase, String destinationBase, int destinations, int firstFlowId, int sources) {

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
        if (packetsPerSecond < 0 || packets < 0 || destinations <= 0 || firstFlowId < 0 || sources < 0) {
            throw new IllegalArgumentException(
                    "packetsPerSecond, packets, firstFlowId, sources must be >= 0, destinations > 0");
        }
        MacAddress.parse(sourceMac, "sourceMac");
        MacAddress.parse(destinationMac, "destinationMac");
        if (Cidr.parse(sourceBase, "sourceBase").version() != 4
                || Cidr.parse(destinationBase, "destinationBase").version() != 4) {
            throw new IllegalArgumentException("sourceBase and destinationBase must be IPv4 addresses");
        }
    }

    /** 1,000 UDP/IPv4 flows of 64-byte frames, as fast as possible, forever, to 02:00:00:00:00:01. */
    public static TrafficProfile udp() {
        return new TrafficProfile(1_000, 64, 0, 100, 0, 0, 0, null, "02:00:00:00:00:aa", "02:00:00:00:00:01", 0,
                "10.0.0.0", "10.128.0.0", 1, 0, 0);
    }

    public TrafficProfile withFlows(int count) {
        return with(p -> p.flows = count);
    }

    public TrafficProfile withFrameBytes(int bytes) {
        return with(p -> p.frameBytes = bytes);
    }

    public TrafficProfile withRate(long pps) {
        return with(p -> p.packetsPerSecond = pps);
    }

    public TrafficProfile withMix(int udp, int tcp, int ipv6) {
        return with(p -> {
            p.udpPercent = udp;
            p.tcpPercent = tcp;
            p.ipv6Percent = ipv6;
        });
    }

    public TrafficProfile withPackets(long count) {
        return with(p -> p.packets = count);
    }

    public TrafficProfile withDuration(Duration limit) {
        return with(p -> p.duration = limit);
    }

    public TrafficProfile withMacs(String source, String destination) {
        return with(p -> {
            p.sourceMac = source;
            p.destinationMac = destination;
        });
    }

    public TrafficProfile withVlan(int tag) {
        return with(p -> p.vlan = tag);
    }

    public TrafficProfile withAddresses(String source, String destination, int destinationCount) {
        return with(p -> {
            p.sourceBase = source;
            p.destinationBase = destination;
            p.destinations = destinationCount;
        });
    }

    public TrafficProfile withFirstFlowId(int id) {
        return with(p -> p.firstFlowId = id);
    }

    /** Flows share {@code count} source addresses (1: every flow between one pair of addresses, told apart by
     *  its ports). */
    public TrafficProfile withSources(int count) {
        return with(p -> p.sources = count);
    }

    /** A copy with {@code change} applied to its fields (validated like any profile). */
    private TrafficProfile with(Consumer<Fields> change) {
        Fields f = new Fields(this);
        change.accept(f);
        return new TrafficProfile(f.flows, f.frameBytes, f.packetsPerSecond, f.udpPercent, f.tcpPercent,
                f.ipv6Percent, f.packets, f.duration, f.sourceMac, f.destinationMac, f.vlan, f.sourceBase,
                f.destinationBase, f.destinations, f.firstFlowId, f.sources);
    }

    /** The record's fields, mutable, for {@link #with}. */
    private static final class Fields {
        int flows;
        int frameBytes;
        long packetsPerSecond;
        int udpPercent;
        int tcpPercent;
        int ipv6Percent;
        long packets;
        Duration duration;
        String sourceMac;
        String destinationMac;
        int vlan;
        String sourceBase;
        String destinationBase;
        int destinations;
        int firstFlowId;
        int sources;

        Fields(TrafficProfile p) {
            flows = p.flows;
            frameBytes = p.frameBytes;
            packetsPerSecond = p.packetsPerSecond;
            udpPercent = p.udpPercent;
            tcpPercent = p.tcpPercent;
            ipv6Percent = p.ipv6Percent;
            packets = p.packets;
            duration = p.duration;
            sourceMac = p.sourceMac;
            destinationMac = p.destinationMac;
            vlan = p.vlan;
            sourceBase = p.sourceBase;
            destinationBase = p.destinationBase;
            destinations = p.destinations;
            firstFlowId = p.firstFlowId;
            sources = p.sources;
        }
    }
}
