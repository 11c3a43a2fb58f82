package io.edp.engine;

import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.packet.FlowKey;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/** The 5-tuples a {@link TrafficProfile} sends, and how many packets and bytes each: the ledger a flow export
 *  must match. */
final class FiveTuples {

    private FiveTuples() {
    }

    static String key(String protocol, String source, int sourcePort, String destination, int destinationPort) {
        return protocol + " " + source + ":" + sourcePort + " > " + destination + ":" + destinationPort;
    }

    static String protocol(int number) {
        return switch (number) {
            case FlowKey.PROTO_UDP -> "UDP";
            case FlowKey.PROTO_TCP -> "TCP";
            default -> "proto" + number;
        };
    }

    /**
     * Adds what {@code p} sends (its packets in round robin over its flows; UDP and TCP only, frames of at least
     * 128 bytes so every kind has the profile's size) to {@code ledger}: 5-tuple → [packets, bytes].
     */
    static void add(Map<String, List<Long>> ledger, TrafficProfile p) {
        if (p.frameBytes() < 128 || p.udpPercent() + p.tcpPercent() != 100) {
            throw new IllegalArgumentException("the ledger knows UDP and TCP frames of 128 bytes or more");
        }
        int source = ByteBuffer.wrap(IpfixCapture.addressBytes(p.sourceBase())).getInt();
        int destination = ByteBuffer.wrap(IpfixCapture.addressBytes(p.destinationBase())).getInt();
        for (int flow = 0; flow < p.flows(); flow++) {
            long packets = p.packets() / p.flows() + (flow < p.packets() % p.flows() ? 1 : 0);
            int proto = TrafficGenerator.protocol(p, flow);
            int d = flow % p.destinations();
            int s = p.sources() == 0 ? flow : flow % p.sources();
            String src;
            String dst;
            if (TrafficGenerator.ipv6(p, flow)) {
                src = IpfixCapture.address(ByteBuffer.allocate(16).putShort((short) 0xfd00).putLong(8, s).array());
                dst = IpfixCapture.address(ByteBuffer.allocate(16).putShort((short) 0xfd01)
                        .putLong(8, ((long) d << 16) | 1).array());
            } else {
                src = IpfixCapture.address(ByteBuffer.allocate(4).putInt(source + s).array());
                dst = IpfixCapture.address(ByteBuffer.allocate(4).putInt(destination + d * 256 + 1).array());
            }
            String k = key(protocol(proto), src, 1024 + flow % 60_000, dst,
                    (proto == FlowKey.PROTO_UDP ? 5001 : 80) + flow / 60_000);
            ledger.merge(k, List.of(packets, packets * p.frameBytes()),
                    (a, b) -> List.of(a.get(0) + b.get(0), a.get(1) + b.get(1)));
        }
    }
}
