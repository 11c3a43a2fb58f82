package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficSink;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class EngineTrafficTest {

    @Test
    void switchedTrafficReachesTheVmPortInOrderWithoutLoss() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            TrafficGenerator gen = TestTopology.nic(engine, 0).startTraffic(TestTopology.routed(100, 0)
                    .withMacs("02:00:00:00:00:aa", TestTopology.VM_A_MAC).withPackets(20_000));
            TrafficSink sink = TestTopology.nic(engine, 1).sink();
            Await.until("20,000 frames at vm-a", () -> sink.packets() == 20_000, Duration.ofSeconds(20),
                    () -> engine.stats().toString());
            assertThat(gen.sent()).isEqualTo(20_000);
            assertThat(sink.lost()).isZero();
            assertThat(sink.reordered()).isZero();
            EngineStats stats = engine.stats();
            assertThat(stats.flowCache().hits()).isEqualTo(20_000 - 100);
            assertThat(stats.flowCache().insertions()).isEqualTo(100);
        }
    }

    @Test
    void routedTrafficLeavesTheSecondUplinkTaggedWithTheRouteVlan() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            TestTopology.nic(engine, 0).startTraffic(TestTopology.routed(64, 10_000));
            LoopbackNic out = TestTopology.nic(engine, 2);
            Await.until("10,000 routed frames", () -> out.sink().packets() == 10_000, Duration.ofSeconds(20),
                    () -> engine.stats().toString());
            assertThat(out.sink().lost()).isZero();
            EngineStats stats = engine.stats();
            assertThat(stats.dropped()).isZero();
            assertThat(stats.ports().get(2).txPackets()).isEqualTo(10_000);
        }
    }
}
