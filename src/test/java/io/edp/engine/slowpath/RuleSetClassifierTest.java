package io.edp.engine.slowpath;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.FlowKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tuple-space classifier against the definition of the firewall: the first rule in list order whose every test
 * holds. Rules and packets are drawn from small pools of addresses, prefix lengths, protocols and ports, so that
 * rules overlap, share tuples, collide in buckets and match often; ports sit on both sides of the port stage's row
 * boundaries, and some IPv6 prefixes have the hi word prefix tracking would take for an empty slot. Of every ten
 * sets, one draws prefixes of every length in both fields (more (family, length) classes than prefix tracking
 * follows), one in the source only (the destination tracked alone), one of every IPv4 length only (33 levels for
 * the binary search on lengths).
 */
class RuleSetClassifierTest {

    private static final int[] PROTOCOLS = {0, 0, FlowKey.PROTO_TCP, FlowKey.PROTO_UDP, FlowKey.PROTO_ICMP,
            FlowKey.PROTO_ICMPV6};
    private static final int[] PORTS = {0, 22, 53, 63, 64, 80, 443, 5000, 65535};
    private static final int[] V4_LENGTHS = {0, 8, 16, 24, 31, 32};
    private static final int[] V6_LENGTHS = {0, 32, 64, 100, 127, 128};

    private final long seed = System.nanoTime();
    private final Random random = new Random(seed);
    /** Which lengths the set's prefixes are drawn from. */
    private enum Lengths { POOLS, EVERY, EVERY_IN_SOURCE, EVERY_IPV4 }

    private Lengths lengths;

    @Test
    void everyPacketGetsTheFirstRuleThatMatchesItInListOrder() {
        int lookups = 0;
        int matched = 0;
        int maxTuples = 0;
        for (int set = 0; set < 304; set++) {
            lengths = switch (set % 10) {
                case 9 -> Lengths.EVERY;
                case 8 -> Lengths.EVERY_IN_SOURCE;
                case 7 -> Lengths.EVERY_IPV4;
                default -> set >= 302 ? Lengths.EVERY : Lengths.POOLS;
            };
            // sets 300 and 301 reach the third band of rules (past 1,024); the last two have so many shapes that a
            // bit of the bitmaps' summaries stands for several words (past 4,096 tuples)
            var rules = rules(set >= 302 ? 8_000 : set >= 300 ? 1_100 + random.nextInt(400)
                    : random.nextInt(set < 50 ? 8 : 400));
            var classifier = new RuleSet(rules);
            maxTuples = Math.max(maxTuples, classifier.tuples());
            for (int p = 0; p < (set >= 302 ? 20 : set >= 300 ? 50 : 400); p++) {
                var packet = packet();
                int expected = firstMatch(rules, packet);
                assertThat(classifier.match(packet.srcHi, packet.srcLo, packet.dstHi, packet.dstLo, packet.l4,
                        packet.outPort)).as("seed %d, rule set %d, %s against %s", seed, set, packet, rules)
                        .isEqualTo(expected);
                lookups++;
                matched += expected >= 0 ? 1 : 0;
            }
        }
        System.out.printf("rule classifier: %d lookups equal to the first-match scan, %d matched a rule, "
                + "at most %d tuples (seed %d)%n", lookups, matched, maxTuples, seed);
        assertThat(matched).as("the pools make rules match often").isGreaterThan(lookups / 4);
    }

    @Test
    void rulesOfOneShapeShareOneTuplePerBand() {
        var rules = new ArrayList<FirewallRule>();
        for (int i = 1; i <= 10_000; i++) {
            rules.add(new FirewallRule(i, "10." + (i >> 8 & 255) + "." + (i & 255) + ".0/24", "any",
                    FlowKey.PROTO_TCP, PortRange.ANY, PortRange.of(1024 + i % 1000), Set.of(), Verdict.DROP));
        }
        var classifier = new RuleSet(rules);

        assertThat(classifier.tuples()).as("rules 1-64, 65-1,024, 1,025-10,000").isEqualTo(3);
        long l4 = FlowKey.l4Word(40000, 1024 + 9_999 % 1000, FlowKey.PROTO_TCP, 4, 0);
        assertThat(classifier.match(v4(10, 39, 15, 7), 0, v4(192, 168, 0, 1), 0, l4, -1)).isEqualTo(9_998);
    }

    @Test
    void aFirstBandOfOneShapeIsFilteredByTheWholeSetsPrefixes() {
        // one tuple in the first band: too few for prefix tracking of its own, so it shares the later bands'
        lengths = Lengths.POOLS;
        for (int set = 0; set < 20; set++) {
            var rules = new ArrayList<FirewallRule>();
            for (int i = 1; i <= 64; i++) {
                rules.add(new FirewallRule(i, "10.0." + random.nextInt(3) + "." + random.nextInt(5) + "/32", "any",
                        FlowKey.PROTO_TCP, PortRange.ANY, ports(), Set.of(), Verdict.DROP));
            }
            for (var rule : rules(random.nextInt(400))) {
                rules.add(new FirewallRule(rule.id() + 64, rule.source(), rule.destination(), rule.protocol(),
                        rule.sourcePorts(), rule.destinationPorts(), rule.appliedTo(), rule.verdict()));
            }
            var classifier = new RuleSet(rules);
            for (int p = 0; p < 400; p++) {
                var packet = packet();
                assertThat(classifier.match(packet.srcHi, packet.srcLo, packet.dstHi, packet.dstLo, packet.l4,
                        packet.outPort)).as("seed %d, rule set %d, %s against %s", seed, set, packet, rules)
                        .isEqualTo(firstMatch(rules, packet));
            }
        }
    }

    @Test
    void aRuleIdIsLoggedExactlyWhenItsRuleIs() {
        for (int set = 0; set < 50; set++) {
            var rules = new ArrayList<FirewallRule>();
            var logged = new HashSet<Integer>();
            for (int i = 0, count = random.nextInt(300); i < count; i++) {
                int id = 1 + random.nextInt(Integer.MAX_VALUE - 1);
                boolean log = random.nextBoolean();
                rules.add(new FirewallRule(id, "any", "any", 0, null, null, Set.of(), Verdict.ALLOW, log));
                if (log) {
                    logged.add(id);
                }
            }
            var ruleSet = new RuleSet(rules);
            assertThat(ruleSet.logs()).isEqualTo(!logged.isEmpty());
            for (var rule : rules) {
                assertThat(ruleSet.logsId(rule.id())).as("seed %d, rule %d", seed, rule.id())
                        .isEqualTo(logged.contains(rule.id()));
            }
            for (int i = 0; i < 1_000; i++) {
                int id = random.nextInt();
                assertThat(ruleSet.logsId(id)).as("seed %d, id %d", seed, id).isEqualTo(logged.contains(id));
            }
        }
    }

    private List<FirewallRule> rules(int count) {
        var rules = new ArrayList<FirewallRule>(count);
        for (int i = 0; i < count; i++) {
            boolean v6 = random.nextInt(4) == 0;
            String source = prefix(v6, lengths != Lengths.POOLS);
            String destination = random.nextInt(3) == 0 ? "any"
                    : prefix(v6, lengths == Lengths.EVERY || lengths == Lengths.EVERY_IPV4);
            int protocol = PROTOCOLS[random.nextInt(PROTOCOLS.length)];
            rules.add(new FirewallRule(i + 1, source, destination, protocol, ports(), ports(), appliedTo(),
                    Verdict.values()[random.nextInt(Verdict.values().length)]));
        }
        return rules;
    }

    private String prefix(boolean v6, boolean everyLength) {
        if (random.nextInt(5) == 0) {
            return "any";
        }
        if (v6) {
            // 0:0:0:1::/64 and longer have hi 1, the first empty-slot marker prefix tracking tries
            return (random.nextInt(4) == 0 ? "0:0:0:1::" : "fd00::") + Integer.toHexString(random.nextInt(4)) + "/"
                    + (everyLength && lengths != Lengths.EVERY_IPV4 ? random.nextInt(129)
                            : V6_LENGTHS[random.nextInt(6)]);
        }
        return "10.0." + random.nextInt(3) + "." + random.nextInt(4) + "/"
                + (everyLength ? random.nextInt(33) : V4_LENGTHS[random.nextInt(6)]);
    }

    private PortRange ports() {
        return switch (random.nextInt(4)) {
            case 0, 1 -> PortRange.ANY;
            case 2 -> PortRange.of(PORTS[random.nextInt(PORTS.length)]);
            default -> {
                int a = PORTS[random.nextInt(PORTS.length)];
                int b = PORTS[random.nextInt(PORTS.length)];
                yield new PortRange(Math.min(a, b), Math.max(a, b));
            }
        };
    }

    private Set<Integer> appliedTo() {
        var ports = new HashSet<Integer>();
        for (int i = random.nextInt(4) == 0 ? random.nextInt(3) + 1 : 0; i > 0; i--) {
            ports.add(random.nextInt(6));
        }
        return ports;
    }

    private record Packet(long srcHi, long srcLo, long dstHi, long dstLo, long l4, int outPort) {
    }

    private Packet packet() {
        boolean v6 = random.nextInt(4) == 0;
        int proto = PROTOCOLS[2 + random.nextInt(PROTOCOLS.length - 2)];
        long l4 = FlowKey.l4Word(PORTS[random.nextInt(PORTS.length)] + random.nextInt(2) & 0xFFFF,
                PORTS[random.nextInt(PORTS.length)] - random.nextInt(2) & 0xFFFF, proto, v6 ? 6 : 4,
                random.nextInt(6));
        int outPort = random.nextInt(7) - 1;
        if (v6) {
            long hi = random.nextInt(4) == 0 ? 1 : 0xFD00L << 48;
            return new Packet(hi, random.nextInt(4), hi, random.nextInt(5), l4, outPort);
        }
        return new Packet(v4(10, 0, random.nextInt(3), random.nextInt(5)), 0,
                v4(10, 0, random.nextInt(3), random.nextInt(5)), 0, l4, outPort);
    }

    private static long v4(int a, int b, int c, int d) {
        return (long) (a << 24 | b << 16 | c << 8 | d) << 32;
    }

    /** The firewall's definition, written out rule by rule with nothing precomputed. */
    private static int firstMatch(List<FirewallRule> rules, Packet packet) {
        int proto = FlowKey.proto(packet.l4);
        int version = FlowKey.ipVersion(packet.l4);
        boolean ports = proto == FlowKey.PROTO_TCP || proto == FlowKey.PROTO_UDP;
        for (int i = 0; i < rules.size(); i++) {
            var rule = rules.get(i);
            var source = Cidr.parse(rule.source(), "source");
            var destination = Cidr.parse(rule.destination(), "destination");
            int ruleVersion = Math.max(source.version(), destination.version());
            boolean matches = (rule.protocol() == 0 || rule.protocol() == proto)
                    && (ruleVersion == 0 || ruleVersion == version)
                    && contains(source, packet.srcHi, packet.srcLo) && contains(destination, packet.dstHi, packet.dstLo)
                    && (!ports || within(rule.sourcePorts(), FlowKey.srcPort(packet.l4))
                            && within(rule.destinationPorts(), FlowKey.dstPort(packet.l4)))
                    && (rule.appliedTo().isEmpty() || rule.appliedTo().contains(FlowKey.inPort(packet.l4))
                            || rule.appliedTo().contains(packet.outPort));
            if (matches) {
                return i;
            }
        }
        return -1;
    }

    private static boolean contains(Cidr prefix, long hi, long lo) {
        return (hi & Cidr.maskHi(prefix.length())) == prefix.hi() && (lo & Cidr.maskLo(prefix.length())) == prefix.lo();
    }

    private static boolean within(PortRange range, int port) {
        return port >= range.from() && port <= range.to();
    }
}
