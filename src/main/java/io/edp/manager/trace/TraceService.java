package io.edp.manager.trace;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import io.edp.engine.EngineConfig;
import io.edp.engine.VnicConfig;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.trace.PacketFields;
import io.edp.manager.api.FieldProblem;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.engines.EnginePorts;
import io.edp.manager.engines.HostEngines;
import org.springframework.stereotype.Service;

/**
 * Traces packets through the hosts' engines: turns a request into a frame and an ingress port of the engine, asks
 * the engine ({@link io.edp.manager.engines.HostEngine#trace}, read-only) and names the ports in the answer.
 */
@Service
class TraceService {

    /** The source MAC of a traced packet entering from a physical NIC, unless given. */
    static final String SOURCE_MAC = "02:00:00:00:00:aa";
    private static final int DEFAULT_SOURCE_PORT = 49152;
    private static final int DEFAULT_DESTINATION_PORT = 80;
    private static final int DEFAULT_TTL = 64;
    private static final int DEFAULT_LENGTH = 64;

    private final HostEngines engines;

    TraceService(HostEngines engines) {
        this.engines = engines;
    }

    TraceResponse trace(UUID hostId, TraceRequest request) {
        var engine = engines.require(hostId);
        var config = engine.config();
        int port = EnginePorts.port(config, request.ingress(), "ingress");
        byte[] frame = request.frameHex() != null ? fromHex(request) : fields(request, config, port).frame();
        var trace = engine.trace(port, frame);
        return TraceResponse.of(HexFormat.of().formatHex(frame), engines.generation(hostId).orElse(0), trace,
                id -> EnginePorts.name(config, id));
    }

    private static byte[] fromHex(TraceRequest request) {
        if (request.hasFields()) {
            throw new InvalidRequestException("frameHex", "give the frame or its fields, not both");
        }
        return HexFormat.of().parseHex(request.frameHex());
    }

    /** The packet the fields describe, with the defaults filled in; every bad field is named. */
    private static PacketFields fields(TraceRequest r, EngineConfig config, int port) {
        List<FieldProblem> problems = new ArrayList<>();
        var source = address(r.sourceIp(), "sourceIp", problems);
        var destination = address(r.destinationIp(), "destinationIp", problems);
        if (source != null && destination != null && source.getClass() != destination.getClass()) {
            problems.add(new FieldProblem("destinationIp", "must be of the same family as sourceIp"));
        }
        int protocol = protocol(r.protocol(), destination, problems);
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        String sourceMac = r.sourceMac() != null ? r.sourceMac() : config.vnics().stream()
                .filter(v -> v.port() == port).map(VnicConfig::mac).findFirst().orElse(SOURCE_MAC);
        int tcpFlags = 0;
        for (var flag : r.tcpFlags() == null ? List.of(TraceRequest.TcpFlag.SYN) : r.tcpFlags()) {
            tcpFlags |= flag.bit;
        }
        // the request's constraints and the checks above leave nothing for PacketFields to refuse
        return new PacketFields(MacAddress.parse(sourceMac, "sourceMac"),
                MacAddress.parse(r.destinationMac() != null ? r.destinationMac() : config.routerMac(),
                        "destinationMac"),
                r.vlans() == null ? List.of() : r.vlans(), source, destination, protocol,
                or(r.sourcePort(), DEFAULT_SOURCE_PORT), or(r.destinationPort(), DEFAULT_DESTINATION_PORT),
                tcpFlags, or(r.ttl(), DEFAULT_TTL), or(r.length(), DEFAULT_LENGTH));
    }

    private static InetAddress address(String text, String field, List<FieldProblem> problems) {
        if (text == null) {
            problems.add(new FieldProblem(field, "must not be null without frameHex"));
            return null;
        }
        try {
            return InetAddress.ofLiteral(text);
        } catch (IllegalArgumentException e) {
            problems.add(new FieldProblem(field, "must be an IPv4 or IPv6 address"));
            return null;
        }
    }

    /** The protocol number; icmp towards an IPv6 address is ICMPv6. */
    private static int protocol(String text, InetAddress destination, List<FieldProblem> problems) {
        boolean ipv6 = destination != null && !(destination instanceof Inet4Address);
        return switch (text == null ? "icmp" : text) {
            case "tcp" -> FlowKey.PROTO_TCP;
            case "udp" -> FlowKey.PROTO_UDP;
            case "icmp" -> ipv6 ? FlowKey.PROTO_ICMPV6 : FlowKey.PROTO_ICMP;
            case "icmpv6" -> FlowKey.PROTO_ICMPV6;
            default -> {
                int number = Integer.parseInt(text); // the request's pattern let digits only through
                if (number > 255) {
                    problems.add(new FieldProblem("protocol", "must be 0..255"));
                }
                yield number;
            }
        };
    }

    private static int or(Integer value, int fallback) {
        return value == null ? fallback : value;
    }
}
