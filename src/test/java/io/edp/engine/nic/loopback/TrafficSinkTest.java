package io.edp.engine.nic.loopback;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.Engine;
import io.edp.engine.Mode;
import io.edp.engine.TestTopology;
import io.edp.engine.Traffic;
import org.junit.jupiter.api.Test;

class TrafficSinkTest {

    @Test
    void aSecondIdenticalRunStartsEveryFlowsSequenceAfresh() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            TrafficSink sink = TestTopology.nic(engine, 2).sink();
            TrafficProfile run = TestTopology.routed(64, 10_000);

            Traffic.sendAll(engine, 0, run);
            Traffic.sendAll(engine, 0, run);

            assertThat(sink.packets()).isEqualTo(20_000);
            assertThat(sink.reordered()).isZero();
            assertThat(sink.lost()).isZero();
        }
    }
}
