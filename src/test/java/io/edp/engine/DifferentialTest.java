package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.nic.loopback.TrafficSink;
import io.edp.engine.packet.DropReason;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The same traffic through LEGACY (IOChain per packet) and EDP_STANDARD (flow cache) gives the same results. */
class DifferentialTest {

    private static final int ROUTED_FLOWS = 300;
    private static final int SWITCHED_FLOWS = 100;
    private static final int SWITCHED_FIRST_ID = 10_000;

    record Outcome(long[][] packets, long[][] digests, Map<DropReason, Long> drops, long[] txPerPort) {
    }

    private static EngineConfig config(Mode mode) {
        return TestTopology.config(mode)
                .route(new Route("fd01::/16", TestTopology.GATEWAY_MAC, 2, 20))
                .rule(FirewallRule.of(1, "any", "10.128.3.0/24", 0, Verdict.DROP))
                .rule(new FirewallRule(2, "10.0.0.18/32", "any", 6, PortRange.ANY, PortRange.of(80), Set.of(),
                        Verdict.REJECT))
                .rule(FirewallRule.of(3, "fd00::5/128", "any", 0, Verdict.DROP))
                .rule(FirewallRule.of(4, "any", "any", 0, Verdict.ALLOW))
                .build();
    }

    private static Outcome run(Mode mode) {
        try (Engine engine = Engine.start(config(mode))) {
            TrafficProfile routed = TestTopology.routed(ROUTED_FLOWS, ROUTED_FLOWS * 20L).withMix(50, 30, 30);
            Traffic.sendAll(engine, 0, routed);
            TrafficProfile switched = TrafficProfile.udp().withFlows(SWITCHED_FLOWS).withPackets(SWITCHED_FLOWS * 10L)
                    .withMix(60, 30, 20).withVlan(10).withMacs("02:00:00:00:00:aa", TestTopology.VM_A_MAC)
                    .withFirstFlowId(SWITCHED_FIRST_ID);
            Traffic.sendAll(engine, 0, switched);
            long[][] packets = new long[3][SWITCHED_FIRST_ID + SWITCHED_FLOWS];
            long[][] digests = new long[3][SWITCHED_FIRST_ID + SWITCHED_FLOWS];
            for (int port = 1; port <= 2; port++) {
                TrafficSink sink = TestTopology.nic(engine, port).sink();
                for (int flow = 0; flow < packets[port].length; flow++) {
                    packets[port][flow] = sink.flowPackets(flow);
                    digests[port][flow] = sink.flowDigest(flow);
                }
                assertThat(sink.reordered()).isZero();
            }
            EngineStats stats = engine.stats();
            long[] tx = new long[3];
            for (EngineStats.PortStats p : stats.ports()) {
                tx[p.id()] = p.txPackets();
            }
            if (mode != Mode.LEGACY) {
                assertThat(stats.flowCache().hits()).as("the fast path served most packets").isGreaterThan(5_000);
            }
            return new Outcome(packets, digests, stats.drops(), tx);
        }
    }

    @Test
    void legacyAndEdpStandardForwardDropAndRewriteEveryFlowAlike() {
        Outcome legacy = run(Mode.LEGACY);
        Outcome edp = run(Mode.EDP_STANDARD);

        assertThat(edp.drops()).isEqualTo(legacy.drops());
        assertThat(legacy.drops()).containsKeys(DropReason.FIREWALL_DROP, DropReason.FIREWALL_REJECT);
        assertThat(edp.txPerPort()).isEqualTo(legacy.txPerPort());
        // switched flows 5 (fd00::5) and 18 (10.0.0.18, tcp/80) meet rules 3 and 2
        assertThat(legacy.txPerPort()[1]).isEqualTo(SWITCHED_FLOWS * 10L - 2 * 10);
        for (int port = 1; port <= 2; port++) {
            for (int flow = 0; flow < legacy.packets()[port].length; flow++) {
                assertThat(edp.packets()[port][flow]).as("packets of flow %d at port %d", flow, port)
                        .isEqualTo(legacy.packets()[port][flow]);
                assertThat(edp.digests()[port][flow]).as("headers of flow %d at port %d", flow, port)
                        .isEqualTo(legacy.digests()[port][flow]);
            }
        }
    }
}
