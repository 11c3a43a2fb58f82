package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.loopback.TrafficGenerator;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** After warm-up the worker thread allocates nothing per packet: not on the fast path, not on the IOChain. */
class ZeroAllocationTest {

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theWorkerAllocatesNoBytesPerPacketAfterWarmUp(Mode mode) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (Engine engine = Engine.start(TestTopology.config(mode).build())) {
            TrafficGenerator generator = TestTopology.nic(engine, 0)
                    .startTraffic(TestTopology.routed(1_000, 0).withMix(60, 20, 0));
            Await.until("warm-up", () -> engine.stats().txPackets() > 200_000, Duration.ofSeconds(30));
            long worker = engine.workerThreadIds()[0];
            long before = threads.getThreadAllocatedBytes(worker);
            long packets0 = engine.stats().rxPackets();
            Await.until("300,000 more packets", () -> engine.stats().rxPackets() > packets0 + 300_000,
                    Duration.ofSeconds(60));
            long allocated = threads.getThreadAllocatedBytes(worker) - before;
            long packets = engine.stats().rxPackets() - packets0;
            generator.stop();

            assertThat(allocated).as("bytes allocated by the worker over %d packets", packets).isZero();
        }
    }
}
