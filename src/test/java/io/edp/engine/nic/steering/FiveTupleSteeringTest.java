package io.edp.engine.nic.steering;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.loopback.FiveTupleSteering;
import java.lang.foreign.MemorySegment;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** The loopback NIC's default steering spreads flows that differ in any one field of the 5-tuple. */
class FiveTupleSteeringTest {

    private static final int FLOWS = 64;
    private static final int QUEUES = 4;
    private static final long MAC = 0x0200_0000_0001L;

    @Test
    void flowsDifferingOnlyInTheDestinationAddressSpreadOverEveryQueue() {
        assertSpread(i -> TestFrames.frame(MAC, 0, "10.0.0.1", 1024, "10.128.0." + (i + 1), 5001, TestFrames.UDP));
    }

    @Test
    void flowsDifferingOnlyInTheSourceAddressSpreadOverEveryQueue() {
        assertSpread(i -> TestFrames.frame(MAC, 0, "10.0.0." + (i + 1), 1024, "10.128.0.1", 5001, TestFrames.UDP));
    }

    @Test
    void flowsDifferingOnlyInAPortSpreadOverEveryQueue() {
        assertSpread(i -> TestFrames.frame(MAC, 0, "10.0.0.1", 1024 + i, "10.128.0.1", 5001, TestFrames.UDP));
        assertSpread(i -> TestFrames.frame(MAC, 0, "10.0.0.1", 1024, "10.128.0.1", 5001 + i, TestFrames.UDP));
        assertSpread(i -> TestFrames.frame(MAC, 0, "fd00::1", 1024 + i, "fd01::1", 5001, TestFrames.UDP));
    }

    private static void assertSpread(IntFunction<MemorySegment> flow) {
        FiveTupleSteering steering = new FiveTupleSteering(QUEUES);
        int[] perQueue = new int[QUEUES];
        for (int i = 0; i < FLOWS; i++) {
            MemorySegment frame = flow.apply(i);
            perQueue[steering.rxQueue(frame, 0, (int) frame.byteSize())]++;
        }
        // 16 expected per queue; 4 leaves room for chance, and fails when one field never reaches the queue bits
        assertThat(java.util.Arrays.stream(perQueue).min().orElseThrow()).as("flows per queue: %s",
                java.util.Arrays.toString(perQueue)).isGreaterThanOrEqualTo(4);
    }
}
