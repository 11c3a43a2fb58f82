package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficSink;
import io.edp.engine.packet.DropReason;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Verdict;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** apply() while traffic runs: new rules and modes take effect for every packet after it returns. */
class LiveConfigurationTest {

    @ParameterizedTest
    @EnumSource(Mode.class)
    void noPacketOfAFlowLeavesOnceItsDropRuleIsApplied(Mode mode) {
        try (Engine engine = Engine.start(TestTopology.config(mode).build())) {
            TrafficGenerator generator = TestTopology.nic(engine, 0)
                    .startTraffic(TestTopology.routed(64, 0).withRate(200_000));
            TrafficSink sink = TestTopology.nic(engine, 2).sink();
            int victim = 5;
            Await.until("flow 5 flowing", () -> sink.flowPackets(victim) > 200, Duration.ofSeconds(20));

            int generation = engine.apply(engine.config().toBuilder()
                    .rule(FirewallRule.of(1, "10.0.0.5/32", "any", 0, Verdict.DROP)).build());
            long atApply = sink.flowPackets(victim);
            long total = sink.packets();
            Await.until("other flows to keep flowing", () -> sink.packets() > total + 20_000, Duration.ofSeconds(20));
            generator.stop();

            assertThat(generation).isEqualTo(2);
            assertThat(sink.flowPackets(victim)).isEqualTo(atApply);
            assertThat(sink.flowPackets(victim + 1)).isGreaterThan(atApply);
            assertThat(engine.stats().drops()).containsKey(DropReason.FIREWALL_DROP);
        }
    }

    @Test
    void modesSwitchLiveWithoutLossOrReordering() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.LEGACY).build())) {
            TrafficGenerator generator = TestTopology.nic(engine, 0)
                    .startTraffic(TestTopology.routed(200, 120_000).withRate(400_000).withMix(70, 20, 0)
                            .withAddresses("10.0.0.0", "10.128.0.0", 16));
            TrafficSink sink = TestTopology.nic(engine, 2).sink();
            Await.until("LEGACY traffic", () -> sink.packets() > 10_000, Duration.ofSeconds(20));
            assertThat(engine.stats().flowCache().hits()).isZero();

            engine.apply(engine.config().toBuilder().mode(Mode.EDP_STANDARD).build());
            Await.until("fast-path hits", () -> engine.stats().flowCache().hits() > 10_000, Duration.ofSeconds(20));
            engine.apply(engine.config().toBuilder().mode(Mode.EDP_DEDICATED).build());
            long hits = engine.stats().flowCache().hits();
            Await.until("more hits", () -> engine.stats().flowCache().hits() > hits + 10_000, Duration.ofSeconds(20));
            engine.apply(engine.config().toBuilder().mode(Mode.LEGACY).build());
            Await.until("the generator to finish", generator::finished, Duration.ofSeconds(30));
            EngineStats stats = Traffic.drained(engine, generator.sent());

            assertThat(stats.mode()).isEqualTo(Mode.LEGACY);
            assertThat(stats.generation()).isEqualTo(4);
            assertThat(sink.packets()).isEqualTo(120_000);
            assertThat(sink.lost()).isZero();
            assertThat(sink.reordered()).isZero();
        }
    }

    @Test
    void flushingTheFlowCachesSendsTheNextPacketsThroughTheIoChain() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            Traffic.sendAll(engine, 0, TestTopology.routed(50, 500));
            Instant sent = Instant.now();
            Await.until("a top-flows snapshot of the traffic", () -> engine.topFlows().takenAt() != null
                    && engine.topFlows().takenAt().isAfter(sent), Duration.ofSeconds(10));
            assertThat(engine.topFlows().flows()).hasSize(50).allSatisfy(f -> {
                assertThat(f.packets()).isEqualTo(10);
                assertThat(f.action()).contains("output(port 2");
            });
            engine.flushFlowCaches();
            assertThat(engine.stats().flowCache().entries()).isZero();
            Traffic.sendAll(engine, 0, TestTopology.routed(50, 50).withFirstFlowId(1_000));
            assertThat(engine.stats().flowCache().insertions()).isEqualTo(100);
        }
    }
}
