package io.edp.cli;

import io.edp.engine.EngineConfig;
import io.edp.engine.FlowCacheConfig;
import io.edp.engine.Mode;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import io.edp.engine.tlb.TlbConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The standalone engine's configuration file (JSON, documented in docs/afpacket.md): the engine's ports with their
 * drivers, mode, workers, firewall rules and routes, plus how often to print statistics. Every mistake is
 * reported as one {@link IllegalArgumentException} naming the field, e.g. {@code ports[0].options.interface}.
 *
 * @param engine        what the engine runs, its Thread Load Balancer included (on by default here)
 * @param statsInterval how often the command prints a statistics line
 */
public record EngineConfigFile(EngineConfig engine, Duration statsInterval) {

    private static final Set<String> TOP_LEVEL = Set.of("mode", "workers", "workersPerNumaNode", "statsIntervalSeconds",
            "flowCacheCapacity", "routerMac", "mbufs", "ports", "firewallRules", "routes", "tlb");
    private static final Set<String> TLB_FIELDS = Set.of("enabled", "intervalSeconds", "thresholdPercent",
            "improvementPercent", "minSecondsBetweenMoves");

    public static EngineConfigFile read(Path file) {
        JsonNode root;
        try {
            root = JsonMapper.builder().build().readTree(file.toFile());
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the file must hold one JSON object");
        }
        for (String name : root.propertyNames()) {
            if (!TOP_LEVEL.contains(name)) {
                throw new IllegalArgumentException("unknown field '" + name + "' (known: " + TOP_LEVEL + ")");
            }
        }
        EngineConfig.Builder builder = EngineConfig.builder()
                .mode(Mode.parse(text(root, "mode", "EDP_STANDARD", "mode")));
        if (root.has("workersPerNumaNode")) {
            for (Map.Entry<String, JsonNode> node : root.get("workersPerNumaNode").properties()) {
                builder.workers(parseInt(node.getKey(), "workersPerNumaNode key"),
                        integer(node.getValue(), "workersPerNumaNode." + node.getKey()));
            }
        } else {
            builder.workers(0, integer(root, "workers", 1, "workers"));
        }
        builder.flowCache(FlowCacheConfig.DEFAULT.withCapacity(
                integer(root, "flowCacheCapacity", FlowCacheConfig.DEFAULT.capacity(), "flowCacheCapacity")));
        builder.routerMac(text(root, "routerMac", EngineConfig.DEFAULT_ROUTER_MAC, "routerMac"));
        builder.mbufs(integer(root, "mbufs", EngineConfig.DEFAULT_MBUFS, "mbufs"));
        int i = 0;
        for (JsonNode port : array(root, "ports")) {
            builder.port(port(port, "ports[" + i++ + "]"));
        }
        i = 0;
        for (JsonNode rule : array(root, "firewallRules")) {
            builder.rule(rule(rule, "firewallRules[" + i++ + "]"));
        }
        i = 0;
        for (JsonNode route : array(root, "routes")) {
            String at = "routes[" + i++ + "]";
            builder.route(new Route(text(route, "prefix", null, at + ".prefix"),
                    text(route, "nextHopMac", null, at + ".nextHopMac"), integer(route, "port", null, at + ".port"),
                    integer(route, "vlan", 0, at + ".vlan")));
        }
        int seconds = integer(root, "statsIntervalSeconds", 5, "statsIntervalSeconds");
        if (seconds < 1) {
            throw new IllegalArgumentException("statsIntervalSeconds must be >= 1: " + seconds);
        }
        return new EngineConfigFile(builder.tlb(tlb(root.path("tlb"))).build(), Duration.ofSeconds(seconds));
    }

    /** Whole seconds and percents, as NSX shows them; absent fields keep {@link TlbConfig#DEFAULTS}. */
    private static TlbConfig tlb(JsonNode tlb) {
        TlbConfig defaults = TlbConfig.DEFAULTS;
        if (tlb.isMissingNode()) {
            return defaults;
        }
        if (!tlb.isObject()) {
            throw new IllegalArgumentException("tlb must be an object");
        }
        for (String name : tlb.propertyNames()) {
            if (!TLB_FIELDS.contains(name)) {
                throw new IllegalArgumentException("unknown field 'tlb." + name + "' (known: " + TLB_FIELDS + ")");
            }
        }
        JsonNode enabled = tlb.path("enabled");
        if (!enabled.isMissingNode() && !enabled.isBoolean()) {
            throw new IllegalArgumentException("tlb.enabled must be true or false: " + enabled);
        }
        int interval = integer(tlb, "intervalSeconds", (int) defaults.interval().toSeconds(), "tlb.intervalSeconds");
        int threshold = integer(tlb, "thresholdPercent", (int) Math.round(defaults.threshold() * 100),
                "tlb.thresholdPercent");
        int improvement = integer(tlb, "improvementPercent",
                (int) Math.round(defaults.improvementThreshold() * 100), "tlb.improvementPercent");
        int quiet = integer(tlb, "minSecondsBetweenMoves", (int) defaults.minTimeBetweenMoves().toSeconds(),
                "tlb.minSecondsBetweenMoves");
        try {
            return new TlbConfig(enabled.asBoolean(defaults.enabled()), Duration.ofSeconds(interval),
                    threshold / 100.0, improvement / 100.0, Duration.ofSeconds(quiet), defaults.historySize());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tlb: " + e.getMessage());
        }
    }

    private static PortConfig port(JsonNode port, String at) {
        Map<String, String> options = new LinkedHashMap<>();
        JsonNode given = port.path("options");
        if (!given.isMissingNode()) {
            if (!given.isObject()) {
                throw new IllegalArgumentException(at + ".options must be an object");
            }
            for (Map.Entry<String, JsonNode> option : given.properties()) {
                options.put(option.getKey(), option.getValue().asString());
            }
        }
        int id = integer(port, "id", null, at + ".id");
        return new PortConfig(id, text(port, "name", "port" + id, at + ".name"),
                integer(port, "numaNode", 0, at + ".numaNode"),
                integer(port, "rxQueues", 1, at + ".rxQueues"), integer(port, "txQueues", 1, at + ".txQueues"),
                text(port, "driver", null, at + ".driver"), options);
    }

    private static FirewallRule rule(JsonNode rule, String at) {
        Set<Integer> appliedTo = new HashSet<>();
        for (JsonNode port : array(rule, "appliedTo")) {
            appliedTo.add(integer(port, at + ".appliedTo"));
        }
        String verdict = text(rule, "verdict", null, at + ".verdict").toUpperCase(Locale.ROOT);
        Verdict parsed;
        try {
            parsed = Verdict.valueOf(verdict);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + ".verdict must be ALLOW, DROP or REJECT: " + verdict);
        }
        return new FirewallRule(integer(rule, "id", null, at + ".id"), text(rule, "source", "any", at + ".source"),
                text(rule, "destination", "any", at + ".destination"),
                protocol(text(rule, "protocol", "any", at + ".protocol"), at),
                ports(text(rule, "sourcePorts", "any", at + ".sourcePorts"), at + ".sourcePorts"),
                ports(text(rule, "destinationPorts", "any", at + ".destinationPorts"), at + ".destinationPorts"),
                appliedTo, parsed);
    }

    private static int protocol(String name, String at) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "any" -> 0;
            case "icmp" -> 1;
            case "tcp" -> 6;
            case "udp" -> 17;
            case "icmpv6" -> 58;
            default -> parseInt(name, at + ".protocol (any, icmp, tcp, udp, icmpv6 or a number)");
        };
    }

    /** "any", "80" or "1000-2000". */
    private static PortRange ports(String text, String at) {
        if (text.equalsIgnoreCase("any")) {
            return PortRange.ANY;
        }
        int dash = text.indexOf('-');
        return dash < 0 ? PortRange.of(parseInt(text, at))
                : new PortRange(parseInt(text.substring(0, dash), at), parseInt(text.substring(dash + 1), at));
    }

    private static Iterable<JsonNode> array(JsonNode parent, String name) {
        JsonNode node = parent.path(name);
        if (node.isMissingNode()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException(name + " must be an array");
        }
        return node.values();
    }

    private static String text(JsonNode parent, String name, String fallback, String at) {
        JsonNode node = parent.get(name);
        if (node == null || node.isNull()) {
            if (fallback == null) {
                throw new IllegalArgumentException(at + " is required");
            }
            return fallback;
        }
        if (!node.isString() && !node.isNumber()) {
            throw new IllegalArgumentException(at + " must be a string");
        }
        return node.asString();
    }

    private static int integer(JsonNode parent, String name, Integer fallback, String at) {
        JsonNode node = parent.get(name);
        if (node == null || node.isNull()) {
            if (fallback == null) {
                throw new IllegalArgumentException(at + " is required");
            }
            return fallback;
        }
        return integer(node, at);
    }

    private static int integer(JsonNode node, String at) {
        if (!node.isIntegralNumber()) {
            throw new IllegalArgumentException(at + " must be an integer: " + node);
        }
        return node.intValue();
    }

    private static int parseInt(String text, String at) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(at + " must be an integer: " + text);
        }
    }
}
