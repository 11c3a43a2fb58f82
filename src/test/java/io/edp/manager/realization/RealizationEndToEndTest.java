package io.edp.manager.realization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

/**
 * The mission's spine, over REST against real PostgreSQL and a real engine: a host with a physical NIC and two VMs
 * goes to EDP_STANDARD, takes 10,000 flows on the fast path, falls back to LEGACY, and drops one flow by a rule.
 */
class RealizationEndToEndTest extends RealizationTest {

    @Test
    void aHostRealizesModesAndRulesWhileTrafficFlows() throws Exception {
        var hostId = createHostWithNicAndTwoVms("esx-e2e");
        var stats = "/api/v1/hosts/" + hostId + "/stats/flow-cache";
        var traffic = "/api/v1/hosts/" + hostId + "/traffic";

        // EDP_STANDARD with two workers: each polls one RX queue of vmnic0
        long standard = setEdp(hostId, "{\"mode\": \"EDP_STANDARD\", \"workersPerNumaNode\": {\"0\": 2}}");
        var realized = awaitRealized(hostId, standard);
        assertThat(realized.read("$.realizedGeneration", Long.class)).isEqualTo(standard);
        assertThat(json(stats).read("$.mode", String.class)).isEqualTo("EDP_STANDARD");

        // 10,000 flows to the web VM; warm-up: every flow has its cache entry
        postJson(traffic, """
                {"nic": "vmnic0", "flows": 10000, "packetsPerSecond": 400000, "destinationMac": "%s"}"""
                .formatted(WEB_MAC));
        var warm = await("10,000 flows cached", () -> json(stats),
                s -> s.read("$.total.insertions", Long.class) >= 10_000);
        var later = await("200,000 more fast-path hits", () -> json(stats),
                s -> hits(s) >= hits(warm) + 200_000);
        long hits = hits(later) - hits(warm);
        long slowPath = later.read("$.total.slowPath", Long.class) - warm.read("$.total.slowPath", Long.class);
        assertThat((double) hits / (hits + slowPath)).isGreaterThan(0.99);
        List<Integer> warmPerWorker = warm.read("$.workers[*].counters.hits");
        List<Integer> laterPerWorker = later.read("$.workers[*].counters.hits");
        assertThat(laterPerWorker).hasSize(2);
        for (int w = 0; w < 2; w++) {
            assertThat(laterPerWorker.get(w).longValue()).as("hits of worker %d", w)
                    .isGreaterThan(warmPerWorker.get(w).longValue());
        }

        // LEGACY: every packet runs the IOChain (the slow path), the cache sees none
        long legacy = setEdp(hostId, "{\"mode\": \"LEGACY\", \"workersPerNumaNode\": {\"0\": 2}}");
        awaitRealized(hostId, legacy);
        var threads = "/api/v1/hosts/" + hostId + "/stats/threads";
        long hitsAtLegacy = hits(json(stats));
        long slowPathAtLegacy = ioChainPackets(json(threads));
        await("100,000 slow-path packets in LEGACY", () -> json(threads),
                s -> ioChainPackets(s) >= slowPathAtLegacy + 100_000);
        var afterLegacy = json(stats);
        assertThat(afterLegacy.read("$.mode", String.class)).isEqualTo("LEGACY");
        assertThat(hits(afterLegacy)).isEqualTo(hitsAtLegacy);

        // a DROP rule for flow 7 (source 10.0.0.7): once realized, none of its frames reach the VM
        long beforeRule = desiredGeneration(hostId);
        postJson("/api/v1/firewall/rules", """
                {"name": "drop-flow-7", "priority": 10, "source": "10.0.0.7/32", "destination": "any",
                 "protocol": "ANY", "action": "DROP"}""");
        long withRule = desiredGeneration(hostId);
        assertThat(withRule).isEqualTo(beforeRule + 1);
        awaitRealized(hostId, withRule);
        long flow7 = received(hostId, 7);
        long flow8 = received(hostId, 8);
        await("flow 8 to go on", () -> received(hostId, 8), n -> n >= flow8 + 20);
        assertThat(received(hostId, 7)).isEqualTo(flow7);

        var stopped = JsonPath.parse(mvc.perform(delete(traffic).with(operator())).andReturn().getResponse()
                .getContentAsString());
        Map<String, Integer> dropped = stopped.read("$.dropped");
        assertThat(dropped).containsKey("FIREWALL_DROP");
        assertThat(stopped.read("$.running", Boolean.class)).isFalse();
        assertThat(stopped.read("$.received", Long.class)).isPositive();
    }

    private long received(UUID hostId, int flow) throws Exception {
        return json("/api/v1/hosts/" + hostId + "/traffic/flows/" + flow).read("$.received", Long.class);
    }

    private static long hits(DocumentContext flowCache) {
        return flowCache.read("$.total.hits", Long.class);
    }

    private static long ioChainPackets(DocumentContext threads) {
        List<Number> perWorker = threads.read("$.workers[*].ioChainPackets");
        return perWorker.stream().mapToLong(Number::longValue).sum();
    }
}
