package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.TestFrames;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import io.edp.engine.time.ManualClock;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A stepped engine moves only when its caller steps it, and shows what each port sent. */
class SteppedEngineTest {

    private static EngineConfig routedToUplink1() {
        // TestFrames.udp goes to 10.0.1.1: route it out of port 2
        return TestTopology.config(Mode.EDP_STANDARD)
                .route(new Route("10.0.1.0/24", TestTopology.GATEWAY_MAC, 2, 20)).build();
    }

    private static boolean inject(Engine engine, byte[] frame) {
        return TestTopology.nic(engine, 0).inject(MemorySegment.ofArray(frame), 0, frame.length);
    }

    @Test
    void aFrameIsHandledOnTheStepAfterItArrivesAndItsBytesAreCaptured() {
        try (Engine engine = Engine.startStepped(routedToUplink1(), NicDrivers.withLoopback(), new ManualClock(0))) {
            LoopbackNic uplink1 = TestTopology.nic(engine, 2);
            uplink1.captureTransmitted(4);
            // starting stepped the workers once (they took the first generation): RX buffers are posted
            assertThat(inject(engine, TestFrames.udp(1000, 64))).isTrue();
            assertThat(inject(engine, TestFrames.udp(1001, 64))).isTrue();
            assertThat(uplink1.takeTransmitted()).as("nothing moves between steps").isEmpty();

            assertThat(engine.step()).isEqualTo(2);
            List<byte[]> sent = uplink1.takeTransmitted();
            assertThat(sent).hasSize(2);
            // routed: tagged 20, source port kept, TTL decremented, in arrival order
            assertThat(sent.get(0)).hasSize(68);
            assertThat(sent.get(0)[14] << 8 | sent.get(0)[15]).isEqualTo(20);
            assertThat(sent.get(0)[18 + 8]).isEqualTo((byte) 63);
            assertThat((sent.get(0)[38] & 0xFF) << 8 | sent.get(0)[39] & 0xFF).isEqualTo(1000);
            assertThat((sent.get(1)[38] & 0xFF) << 8 | sent.get(1)[39] & 0xFF).isEqualTo(1001);
            assertThat(uplink1.takeTransmitted()).isEmpty();
        }
    }

    @Test
    void applyEndsItsGracePeriodWithAStepOnTheCallersThread() {
        try (Engine engine = Engine.startStepped(routedToUplink1(), NicDrivers.withLoopback(), new ManualClock(0))) {
            int generation = engine.apply(engine.config().toBuilder()
                    .rule(FirewallRule.of(1, "any", "any", 0, Verdict.DROP)).build());
            assertThat(generation).isEqualTo(2);

            assertThat(inject(engine, TestFrames.udp(1000, 64))).isTrue();
            engine.step();
            assertThat(engine.stats().dropped()).as("the new rule holds from the next step").isEqualTo(1);
        }
    }

    @Test
    void aCaptureThatOverflowsFailsInsteadOfLosingFrames() {
        try (Engine engine = Engine.startStepped(routedToUplink1(), NicDrivers.withLoopback(), new ManualClock(0))) {
            LoopbackNic uplink1 = TestTopology.nic(engine, 2);
            uplink1.captureTransmitted(1);
            inject(engine, TestFrames.udp(1000, 64));
            inject(engine, TestFrames.udp(1001, 64));
            engine.step();
            assertThatThrownBy(uplink1::takeTransmitted).hasMessageContaining("1 transmitted frames did not fit");
        }
    }

    @Test
    void onlyASteppedEngineSteps() {
        try (Engine engine = Engine.start(routedToUplink1())) {
            assertThatThrownBy(engine::step).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("startStepped");
        }
    }
}
