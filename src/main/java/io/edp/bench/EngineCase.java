package io.edp.bench;

import io.edp.engine.EngineConfig;
import io.edp.engine.FlowCacheConfig;
import io.edp.engine.Mode;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One case of {@code bench engine}, run in a JVM of its own: the seed's UDP profile scaled to one worker — 256
 * firewall rules (the allowing one last), 1,000 routes, connection tracking on — in {@code mode}, on
 * {@code descriptorBytes}-byte packet descriptors (0: the mode's own), with {@code flows} flows of
 * {@code frameBytes}-byte frames; {@code onePair}: all from 10.0.0.1 to 10.128.0.1, told apart by their ports;
 * the live verifier checking one fast-path hit in {@code verifierSampleRate} (0: off). {@code slowPathRules} (0: the
 * seed's 256) scales the rule set to that many rules, the last one dropping the traffic: in LEGACY, which has no flow
 * cache, every packet then misses the connection table and meets the rule lookup (a dropped packet starts no
 * connection), so the case times the slow path's first-packet work at that rule count.
 */
record EngineCase(String id, Mode mode, int descriptorBytes, int frameBytes, int flows, boolean onePair,
        int verifierSampleRate, int slowPathRules) {

    static final int FLOWS = 125_000;
    static final int RULES = 256;
    static final int ROUTES = 1_000;
    private static final String ROUTER_MAC = EngineConfig.DEFAULT_ROUTER_MAC;

    /**
     * Every case, in the order a round runs them. LEGACY on 128-byte descriptors sits between LEGACY and
     * EDP_STANDARD, so the descriptor size and the flow cache each show their own share of the difference.
     */
    static final List<EngineCase> ALL = List.of(
            new EngineCase("legacy-64", Mode.LEGACY, 0, 64, FLOWS, false),
            new EngineCase("legacy-desc128-64", Mode.LEGACY, 128, 64, FLOWS, false),
            new EngineCase("standard-64", Mode.EDP_STANDARD, 0, 64, FLOWS, false),
            new EngineCase("standard-64-verified", Mode.EDP_STANDARD, 0, 64, FLOWS, false, 1_000, 0),
            new EngineCase("dedicated-64", Mode.EDP_DEDICATED, 0, 64, FLOWS, false),
            new EngineCase("standard-64-pair", Mode.EDP_STANDARD, 0, 64, FLOWS, true),
            new EngineCase("legacy-1518", Mode.LEGACY, 0, 1518, FLOWS, false),
            new EngineCase("standard-1518", Mode.EDP_STANDARD, 0, 1518, FLOWS, false),
            new EngineCase("dedicated-1518", Mode.EDP_DEDICATED, 0, 1518, FLOWS, false),
            new EngineCase("floor", Mode.EDP_STANDARD, 0, 64, 1, false),
            slowPath(10),
            slowPath(1_000),
            slowPath(10_000));

    /** A case without the live verifier, on the seed's rules. */
    EngineCase(String id, Mode mode, int descriptorBytes, int frameBytes, int flows, boolean onePair) {
        this(id, mode, descriptorBytes, frameBytes, flows, onePair, 0, 0);
    }

    /** LEGACY with {@code rules} rules, the last dropping the traffic: every packet meets the rule lookup. */
    private static EngineCase slowPath(int rules) {
        return new EngineCase("slowpath-" + rules, Mode.LEGACY, 0, 64, FLOWS, false, 0, rules);
    }

    static EngineCase byId(String id) {
        for (EngineCase c : ALL) {
            if (c.id().equals(id)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown case " + id + " (cases: " + String.join(", ", ids()) + ")");
    }

    static List<String> ids() {
        return ALL.stream().map(EngineCase::id).toList();
    }

    /** Packets the worker must have received before the window opens: every flow installed and tracked. */
    long warmUpPackets() {
        return Math.max(FLOWS, 3L * flows);
    }

    EngineConfig config() {
        EngineConfig.Builder b = EngineConfig.builder()
                .mode(mode)
                .descriptorBytes(descriptorBytes)
                // the loopback NIC's default 512-slot ring, posted whole from the default 16,384-buffer pool: the
                // posted buffers' frame, headroom and descriptor lines are what the worker cycles through, and
                // larger rings cost every packet more (docs/benchmarks.md, fifteenth and eighteenth rounds)
                .port(new PortConfig(0, "wire-in", 0, 1, 1, "loopback", Map.of()))
                // the sink only counts: its per-flow checks would be charged to the worker's transmit
                .port(new PortConfig(1, "wire-out", 0, 1, 1, "loopback", Map.of("sinkFlows", "0")))
                .workers(0, 1)
                .flowCache(FlowCacheConfig.DEFAULT.withVerifierSampleRate(verifierSampleRate))
                .conntrackCapacity(262_144);
        int rules = slowPathRules == 0 ? RULES : slowPathRules;
        for (int i = 1; i < rules; i++) {
            // rules that the traffic does not match: other sources, or other destination ports
            String source = "192.168." + (i % 256) + ".0/24";
            b.rule(i % 2 == 0
                    ? FirewallRule.of(i, source, "any", 17, Verdict.DROP)
                    : new FirewallRule(i, "10.0.0.0/8", "10.128.0.0/9", 17, PortRange.ANY,
                            PortRange.of(6000 + i), Set.of(), Verdict.REJECT));
        }
        b.rule(FirewallRule.of(rules, "10.0.0.0/8", "10.128.0.0/9", 17,
                slowPathRules == 0 ? Verdict.ALLOW : Verdict.DROP));
        for (int i = 0; i < ROUTES; i++) {
            int net = (10 << 24) | (128 << 16) | (i << 8);
            b.route(new Route(((net >>> 24) & 0xFF) + "." + ((net >>> 16) & 0xFF) + "." + ((net >>> 8) & 0xFF)
                    + ".0/24", "02:00:00:00:01:01", 1, 100));
        }
        b.route(new Route("0.0.0.0/0", "02:00:00:00:01:02", 1, 100));
        return b.build();
    }

    TrafficProfile traffic() {
        TrafficProfile profile = TrafficProfile.udp().withFlows(flows).withFrameBytes(frameBytes)
                .withMacs("02:00:00:00:00:aa", ROUTER_MAC);
        return onePair ? profile.withAddresses("10.0.0.1", "10.128.0.0", 1).withSources(1)
                : profile.withAddresses("10.0.0.0", "10.128.0.0", ROUTES);
    }

    /** The three modes on their plain 64-byte case also measure the idle worker (cost and wake-up latency). */
    boolean measuresIdle() {
        return frameBytes == 64 && flows == FLOWS && !onePair && descriptorBytes == 0 && verifierSampleRate == 0
                && slowPathRules == 0;
    }

    /** How the table names the flows: their count, whether they share one pair of addresses, whether verified. */
    String flowsLabel() {
        return String.format(java.util.Locale.ROOT, "%,d%s%s%s", flows, onePair ? " (1 pair)" : "",
                verifierSampleRate == 0 ? "" : " (verified 1/" + verifierSampleRate + ")",
                slowPathRules == 0 ? "" : String.format(java.util.Locale.ROOT, " (%,d rules, dropped)", slowPathRules));
    }
}
