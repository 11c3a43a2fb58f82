package io.edp.engine.tlb;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.AdapterType;
import io.edp.engine.Await;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.Mode;
import io.edp.engine.VnicConfig;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.nic.loopback.TrafficSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The engine's own Thread Load Balancer, configured through {@link EngineConfig#tlb()}: switched on by a live
 * apply on an engine whose uplink queues are piled on one worker under real traffic, it spreads them; its
 * decisions are in the engine's stats and survive a later reconfiguration.
 */
class EngineBalancerTest {

    private static final String VM_A_MAC = "02:00:00:00:00:01";
    private static final int VLAN = 10;
    private static final int UPLINK = 0;
    private static final int VM_PORT = 1;

    @Test
    void balancerSwitchedOnByApplySpreadsQueuesPiledOnOneWorkerAndKeepsItsDecisionsAcrossReconfiguration() {
        EngineConfig config = EngineConfig.builder()
                .mode(Mode.EDP_STANDARD)
                .port(new PortConfig(UPLINK, "uplink0", 0, 4, 2, "loopback", Map.of("steering", "netqueue", "rss", "true")))
                .port(PortConfig.loopback(VM_PORT, "vm-a-eth0", 0, 1, 2))
                .vnic(new VnicConfig("vm-a-eth0", "vm-a", VM_PORT, VM_A_MAC, VLAN, AdapterType.VMXNET3))
                .workers(0, 2)
                .mbufs(4096)
                .build();
        try (Engine engine = Engine.start(config)) {
            assertThat(engine.stats().tlb().config().enabled()).as("off unless configured").isFalse();
            for (int queue = 0; queue < 4; queue++) {
                engine.moveQueue(UPLINK, queue, 0);
            }
            LoopbackNic uplink = (LoopbackNic) engine.driver(UPLINK);
            TrafficGenerator generator = uplink.startTraffic(TrafficProfile.udp().withFlows(256)
                    .withMacs("02:00:00:00:00:aa", VM_A_MAC).withVlan(VLAN).withRate(100_000)
                    .withDuration(Duration.ofSeconds(60)));

            // trigger on any load, so a test's small traffic is enough; no quiet time; a history nothing falls out of
            TlbConfig fast = new TlbConfig(true, Duration.ofMillis(50), 0.001, 0.10, Duration.ZERO, 10_000);
            engine.apply(config.toBuilder().tlb(fast).build());
            Await.until("the balancer to spread the uplink's queues", () -> ownersOfUplinkQueues(engine.stats())
                    .containsAll(List.of(0, 1)), Duration.ofSeconds(60), () -> engine.stats().tlb().toString());
            generator.stop();
            TrafficSink sink = ((LoopbackNic) engine.driver(VM_PORT)).sink();
            Await.until("every frame at vm-a", () -> sink.packets() == generator.sent(), Duration.ofSeconds(30));

            TlbStats tlb = engine.stats().tlb();
            TlbDecision applied = tlb.recentDecisions().stream()
                    .filter(d -> d.outcome() == TlbDecision.Outcome.APPLIED).findFirst().orElseThrow();
            assertThat(tlb.config()).isEqualTo(fast);
            assertThat(applied.trigger()).isEqualTo(Trigger.OVERLOAD);
            assertThat(applied.moves()).isNotEmpty().allMatch(move -> move.fromWorker() == 0 && move.toWorker() == 1
                    && move.queue().port() == UPLINK);
            assertThat(applied.loadsBefore().get(0)).isGreaterThan(applied.loadsBefore().get(1));
            assertThat(sink.lost()).isZero();
            assertThat(sink.reordered()).isZero();

            TlbConfig off = fast.withEnabled(false).withThreshold(0.9);
            engine.apply(config.toBuilder().tlb(off).build());
            TlbStats reconfigured = engine.stats().tlb();
            assertThat(reconfigured.config()).isEqualTo(off);
            assertThat(reconfigured.recentDecisions()).containsAll(tlb.recentDecisions());
        }
    }

    private static List<Integer> ownersOfUplinkQueues(EngineStats stats) {
        return stats.queues().stream().filter(q -> q.port() == UPLINK).map(EngineStats.QueueStats::worker).toList();
    }
}
