package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Verdict;
import io.edp.engine.telemetry.IpfixConfig;
import io.edp.engine.telemetry.IpfixStats;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Known traffic through a real engine, exported over IPFIX to a real nfcapd: many UDP and TCP flows over IPv4 and
 * IPv6, both directions, forwarded and dropped (a DROP rule, and IPv6 without a route), some spanning several
 * active timeouts, many cut by cache expiry and eviction, by a push that changes the rules (revalidation), by a
 * flush and by a mode switch to LEGACY and back.
 * nfdump, summed per 5-tuple, shows exactly the packets and bytes sent; tshark decodes every message.
 */
class FlowExportTest {

    @TempDir
    Path temp;

    @Test
    void nfdumpShowsExactlyThePacketsAndBytesSentPerFiveTupleAndTsharkDecodesEveryMessage() {
        Map<String, List<Long>> sent = new TreeMap<>();
        try (Nfcapd nfcapd = new Nfcapd(temp.resolve("flows")); IpfixCapture capture = new IpfixCapture()) {
            EngineConfig config = TestTopology.config(Mode.EDP_STANDARD)
                    .rule(FirewallRule.of(9, "any", "10.128.3.0/24", 0, Verdict.DROP))
                    .rule(FirewallRule.of(7, "any", "any", 17, Verdict.ALLOW))
                    .flowCache(new FlowCacheConfig(256, Duration.ofMillis(150), Duration.ofMillis(400)))
                    .ipfix(IpfixConfig.to(List.of(nfcapd.address(), capture.address()), 4242)
                            .withTimeouts(250, 1_000))
                    .build();
            TrafficProfile out = TestTopology.routed(400, 0).withMix(70, 30, 25).withFrameBytes(128);
            TrafficProfile back = TestTopology.routed(50, 5_000).withMix(80, 20, 0).withFrameBytes(128)
                    .withMacs("02:00:00:00:00:bb", EngineConfig.DEFAULT_ROUTER_MAC).withVlan(20)
                    .withAddresses("10.128.0.0", "10.129.0.0", 4);
            Engine engine = Engine.start(config);
            try {
                // 1.2 s at 20,000 pps: several active timeouts; 400 flows on 256 entries: expiry and eviction
                send(engine, 0, out.withPackets(24_000).withRate(20_000), sent);
                send(engine, 2, back, sent);
                // no flow is hit now: entries expire within the cache's 400 ms, however fast the machine sent
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (engine.stats().flowCache().expirations() == 0 && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(1_000_000);
                }
                // a push that changes the rules (a new rule that matches none of it): every entry revalidates
                engine.apply(config.toBuilder()
                        .rule(FirewallRule.of(11, "any", "192.0.2.0/24", 0, Verdict.DROP)).build());
                send(engine, 0, out.withPackets(4_000), sent);
                EngineStats.FlowCacheStats cache = engine.stats().flowCache();
                assertThat(cache.revalidations()).as("entries revalidated").isPositive();
                assertThat(cache.expirations()).as("entries expired").isPositive();
                assertThat(cache.evictions()).as("entries evicted").isPositive();
                engine.flushFlowCaches();
                engine.apply(config.toBuilder().mode(Mode.LEGACY).build());
                send(engine, 0, out.withPackets(8_000), sent);
                engine.apply(config);
                send(engine, 0, out.withPackets(8_000), sent);
            } finally {
                engine.close();
            }
            IpfixStats stats = engine.ipfixStats();
            assertThat(stats.recordsDropped()).isZero();
            assertThat(stats.exportErrors()).isZero();
            capture.awaitMessages(stats.messagesSent() / 2);
            assertThat(IpfixCapture.sums(capture.records())).as("the export as read by our own decoder")
                    .isEqualTo(sent);

            List<Map<String, String>> rows = nfcapd.stopAndRead(stats.recordsExported());
            assertThat(rows).hasSize((int) stats.recordsExported());
            assertThat(nfdumpSums(rows)).as("nfdump, summed per 5-tuple").isEqualTo(sent);

            Path pcap = temp.resolve("ipfix.pcap");
            int port = capture.address().getPort();
            capture.writeCapture(pcap, port);
            String decoded = Tshark.decode(pcap, port);
            assertThat(decoded).doesNotContainIgnoringCase("malformed").doesNotContain("Expert Info");
            Map<String, List<String>> read = Tshark.fields(pcap, port, "cflow.version", "cflow.od_id",
                    "cflow.template_id", "cflow.flowset_id", "cflow.srcaddrv6", "cflow.packets");
            assertThat(read.get("cflow.version")).hasSize(capture.messages().size()).allMatch("10"::equals);
            assertThat(read.get("cflow.od_id")).hasSize(capture.messages().size()).allMatch("4242"::equals);
            assertThat(new TreeSet<>(read.get("cflow.template_id"))).as("templates tshark read")
                    .containsExactly("256", "257");
            assertThat(new TreeSet<>(read.get("cflow.flowset_id"))).as("sets tshark read")
                    .containsExactly("2", "256", "257");
            assertThat(read.get("cflow.srcaddrv6")).as("IPv6 records tshark read").isNotEmpty();
            assertThat(read.get("cflow.packets").stream().mapToLong(Long::parseLong).sum())
                    .as("packetDeltaCount summed as tshark reads it")
                    .isEqualTo(sent.values().stream().mapToLong(v -> v.get(0)).sum());
        }
    }

    private static void send(Engine engine, int port, TrafficProfile profile, Map<String, List<Long>> sent) {
        Traffic.sendAll(engine, port, profile);
        FiveTuples.add(sent, profile);
    }

    static Map<String, List<Long>> nfdumpSums(List<Map<String, String>> rows) {
        Map<String, List<Long>> sums = new TreeMap<>();
        for (Map<String, String> r : rows) {
            String key = FiveTuples.key(r.get("pr"), normalized(r.get("sa")), Integer.parseInt(r.get("sp")),
                    normalized(r.get("da")), Integer.parseInt(r.get("dp")));
            sums.merge(key, List.of(Long.parseLong(r.get("ipkt")), Long.parseLong(r.get("ibyt"))),
                    (a, b) -> List.of(a.get(0) + b.get(0), a.get(1) + b.get(1)));
        }
        return sums;
    }

    private static String normalized(String address) {
        try {
            return InetAddress.getByName(address).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(address, e);
        }
    }
}
