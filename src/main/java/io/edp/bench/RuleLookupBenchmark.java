package io.edp.bench;

import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.RuleSet;
import io.edp.engine.slowpath.Verdict;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * {@code bench rules}: the firewall lookup a connection's first packet makes, at 10, 1,000 and 10,000 rules, in two
 * shapes of rule set, cases interleaved round by round. {@code engine}: {@code bench engine}'s rules (sources the
 * traffic never has, destination ports it never uses, the allowing rule last), so every lookup goes to the last
 * rule, the worst case of a scan. {@code varied}: rules drawn from mixed prefix lengths, protocols, port ranges and
 * appliedTo sets, the allowing rule last, so the set spreads over many tuples. Each figure is the median of the
 * rounds with their min–max; the ratio to the 10-rule case of the same shape is taken within each round.
 */
final class RuleLookupBenchmark {

    static final String USAGE = "usage: bench rules [--rounds=N] [--window-ms=N]";
    private static final int[] RULE_COUNTS = {10, 1_000, 10_000};
    private static final int PACKETS = 4_096;

    private record Case(String shape, int rules, RuleSet ruleSet, long[] packets) {
    }

    static int run(List<String> options, PrintStream out, PrintStream err) {
        Rounds settings = Rounds.parse("rules", USAGE, options, new Rounds(5, 300), err);
        if (settings == null) {
            return 2;
        }
        int rounds = settings.rounds();
        long windowMillis = settings.windowMillis();
        var cases = new ArrayList<Case>();
        for (String shape : List.of("engine", "varied", "varied-in")) {
            for (int rules : RULE_COUNTS) {
                var random = new Random(rules);
                var ruleSet = new RuleSet(shape.equals("engine") ? engineRules(rules) : variedRules(rules, random));
                cases.add(new Case(shape, rules, ruleSet, shape.equals("varied-in") ? packetsInVariedPrefixes(random)
                        : packets(random)));
            }
        }
        out.printf(Locale.ROOT, "bench rules: %d cases x %d interleaved rounds, window %d ms each, %,d packets "
                + "cycled per case%n", cases.size(), rounds, windowMillis, PACKETS);
        for (Case c : cases) {
            lookups(c, windowMillis); // warm-up: compiled before the first round
        }
        double[][] nanos = new double[cases.size()][rounds];
        for (int round = 0; round < rounds; round++) {
            out.printf(Locale.ROOT, "round %d/%d%n", round + 1, rounds);
            for (int i = 0; i < cases.size(); i++) {
                nanos[i][round] = lookups(cases.get(i), windowMillis);
            }
        }
        out.println("shape   rules   tuples  ns/lookup median (min-max)  x 10 rules (median of rounds)");
        var rows = new ArrayList<String>();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            int base = i - i % RULE_COUNTS.length;
            double[] ratios = new double[rounds];
            for (int round = 0; round < rounds; round++) {
                ratios[round] = nanos[i][round] / nanos[base][round];
            }
            var lookup = EngineBenchmark.Spread.of(nanos[i]);
            double ratio = EngineBenchmark.Spread.of(ratios).median();
            out.printf(Locale.ROOT, "%-7s %6d %7d  %8.1f (%.1f-%.1f) %18.2f%n", c.shape(), c.rules(),
                    c.ruleSet().tuples(), lookup.median(), lookup.min(), lookup.max(), ratio);
            rows.add(String.format(Locale.ROOT, "{\"shape\": \"%s\", \"rules\": %d, \"tuples\": %d, "
                    + "\"ns_per_lookup_median\": %.2f, \"ns_per_lookup_rounds\": %s, \"ratio_to_10_rules\": %.3f}",
                    c.shape(), c.rules(), c.ruleSet().tuples(), lookup.median(), Arrays.toString(nanos[i]), ratio));
        }
        Rounds.write("rules", rows, out);
        return 0;
    }

    /** Nanoseconds per lookup over a window of whole passes through the case's packets. */
    private static double lookups(Case c, long windowMillis) {
        long deadline = System.nanoTime() + windowMillis * 1_000_000;
        long start = System.nanoTime();
        long count = 0;
        long matched = 0;
        long[] p = c.packets();
        do {
            for (int i = 0; i < p.length; i += 3) {
                matched += c.ruleSet().match(p[i], 0, p[i + 1], 0, p[i + 2], -1);
            }
            count += p.length / 3;
        } while (System.nanoTime() < deadline);
        double nanos = (double) (System.nanoTime() - start) / count;
        if (matched < 0) { // keeps the lookups' results alive; a lookup never answers below -1
            throw new AssertionError();
        }
        return nanos;
    }

    /** As {@code bench engine}'s rules, {@code count} in all. */
    private static List<FirewallRule> engineRules(int count) {
        var rules = new ArrayList<FirewallRule>(count);
        for (int i = 1; i < count; i++) {
            rules.add(i % 2 == 0
                    ? FirewallRule.of(i, "192.168." + (i % 256) + "." + (i / 256 % 256) + "/32", "any", 17,
                            Verdict.DROP)
                    : new FirewallRule(i, "10.0.0.0/8", "10.128.0.0/9", 17, PortRange.ANY,
                            PortRange.of(6000 + i % 50_000), Set.of(), Verdict.REJECT));
        }
        rules.add(FirewallRule.of(count, "10.0.0.0/8", "10.128.0.0/9", 17, Verdict.ALLOW));
        return rules;
    }

    private static List<FirewallRule> variedRules(int count, Random random) {
        int[] lengths = {8, 16, 20, 24, 28, 32};
        int[] protocols = {0, FlowKey.PROTO_TCP, FlowKey.PROTO_UDP, FlowKey.PROTO_ICMP};
        var rules = new ArrayList<FirewallRule>(count);
        for (int i = 1; i < count; i++) {
            String source = "172." + (16 + random.nextInt(16)) + "." + random.nextInt(256) + ".0/"
                    + lengths[random.nextInt(lengths.length)];
            String destination = random.nextBoolean() ? "any" : "10." + (128 + random.nextInt(128)) + "."
                    + random.nextInt(256) + ".0/" + lengths[random.nextInt(lengths.length)];
            int protocol = protocols[random.nextInt(protocols.length)];
            int port = 1 + random.nextInt(60_000);
            PortRange ports = switch (random.nextInt(3)) {
                case 0 -> PortRange.ANY;
                case 1 -> PortRange.of(port);
                default -> new PortRange(port, port + random.nextInt(100));
            };
            Set<Integer> appliedTo = random.nextInt(4) == 0 ? Set.of(random.nextInt(8)) : Set.of();
            rules.add(new FirewallRule(i, source, destination, protocol, PortRange.ANY, ports, appliedTo,
                    Verdict.DROP));
        }
        rules.add(FirewallRule.of(count, "any", "any", 0, Verdict.ALLOW));
        return rules;
    }

    /** UDP first packets from 10.0.0.0/16 to 10.128.0.0/16: (source, destination, L4 word) per packet. */
    private static long[] packets(Random random) {
        return packets(random, 10 << 24, 16, 10 << 24 | 128 << 16, 16);
    }

    /**
     * UDP first packets from 172.16.0.0/12 to 10.128.0.0/9, where the varied rules' prefixes lie: each packet's
     * addresses fall in some of the rules' prefixes, so prefix tracking leaves more tuples to probe.
     */
    private static long[] packetsInVariedPrefixes(Random random) {
        return packets(random, 172 << 24 | 16 << 16, 20, 10 << 24 | 128 << 16, 23);
    }

    private static long[] packets(Random random, int source, int sourceHostBits, int destination,
            int destinationHostBits) {
        long[] packets = new long[PACKETS * 3];
        for (int i = 0; i < packets.length; i += 3) {
            packets[i] = (long) (source | random.nextInt(1 << sourceHostBits)) << 32;
            packets[i + 1] = (long) (destination | random.nextInt(1 << destinationHostBits)) << 32;
            packets[i + 2] = FlowKey.l4Word(1024 + random.nextInt(60_000), 1024 + random.nextInt(4_000),
                    FlowKey.PROTO_UDP, 4, 0);
        }
        return packets;
    }
}
