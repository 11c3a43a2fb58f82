package io.edp.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.edp.engine.numa.CpuAffinity;
import io.edp.engine.numa.CpuSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class CoreRoundTripTest {

    @Test
    void aLineCrossesBetweenTwoPinnedCpusAndBack() {
        assumeThat(CpuAffinity.isSupported()).as("Linux's sched_setaffinity").isTrue();
        List<Integer> cpus = List.copyOf(CpuAffinity.currentThreadAffinity().cpus());
        assumeThat(cpus).as("two CPUs to pin to").hasSizeGreaterThanOrEqualTo(2);

        double nanos = CoreRoundTrip.nanos(CpuSet.of(cpus.get(0)), CpuSet.of(cpus.get(1)));

        // a line cannot go to another core and back in less than a few ns, nor take 2 s on average
        assertThat(nanos).isBetween(5.0, 2e9);
    }

    @Test
    void withoutTwoDifferentCpusThereIsNothingToMeasure() {
        assertThat(CoreRoundTrip.nanos(CpuSet.of(0), CpuSet.of(0))).isEqualTo(-1);
        assertThat(CoreRoundTrip.nanos(CpuSet.of(), CpuSet.of(1))).isEqualTo(-1);
    }
}
