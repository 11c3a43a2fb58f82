package io.edp.engine.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The worker's side of a capture never waits: what a full ring cannot take is counted, the rest kept in order. */
class CaptureRingTest {

    @Test
    void aFullRingCountsDropsWithoutBlockingAndKeepsWhatFitInOrder() {
        CaptureRing ring = new CaptureRing(8, 64, Long.MAX_VALUE);
        byte[] frame = new byte[100];
        long start = System.nanoTime();
        for (int i = 0; i < 1_000_000; i++) {
            frame[0] = (byte) i;
            ring.offer(MemorySegment.ofArray(frame), 0, frame.length, i, i % 2 == 0);
        }
        long elapsed = System.nanoTime() - start;

        assertThat(ring.dropped()).isEqualTo(1_000_000 - 8);
        assertThat(elapsed).as("a million offers to a full ring, nanoseconds").isLessThan(5_000_000_000L);
        List<String> read = new ArrayList<>();
        assertThat(ring.drain((data, offset, captured, length, nanos, inbound) -> read.add(
                data.get(java.lang.foreign.ValueLayout.JAVA_BYTE, offset) + "/" + captured + "/" + length + "/"
                        + nanos + (inbound ? " in" : " out")), Long.MAX_VALUE)).isEqualTo(8);
        assertThat(read).containsExactly("0/64/100/0 in", "1/64/100/1 out", "2/64/100/2 in", "3/64/100/3 out",
                "4/64/100/4 in", "5/64/100/5 out", "6/64/100/6 in", "7/64/100/7 out");

        ring.offer(MemorySegment.ofArray(frame), 0, 60, 42, false);
        assertThat(ring.drain((data, offset, captured, length, nanos, inbound) -> read.add(captured + "/" + length),
                1))
                .as("room again after the drain").isEqualTo(1);
        assertThat(read).last().isEqualTo("60/60");
        assertThat(ring.dropped()).isEqualTo(1_000_000 - 8);
    }

    @Test
    void aRingThatPublishedItsCapturesLimitTakesNoMoreAndDropsNothing() {
        CaptureRing ring = new CaptureRing(8, 64, 5);
        byte[] frame = new byte[64];
        for (int i = 0; i < 100; i++) {
            frame[0] = (byte) i;
            ring.offer(MemorySegment.ofArray(frame), 0, frame.length, i, false);
        }

        List<Long> times = new ArrayList<>();
        assertThat(ring.drain((data, offset, captured, length, nanos, inbound) -> times.add(nanos), Long.MAX_VALUE))
                .isEqualTo(5);
        assertThat(times).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(ring.dropped()).as("frames past the limit, which the capture could never write").isZero();
        ring.offer(MemorySegment.ofArray(frame), 0, frame.length, 100, false);
        assertThat(ring.drain((data, offset, captured, length, nanos, inbound) -> times.add(nanos), Long.MAX_VALUE))
                .as("room in the ring, none in the capture").isZero();
    }
}
