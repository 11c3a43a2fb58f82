package io.edp.engine.numa;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class CpuSetTest {

    @ParameterizedTest
    @ValueSource(strings = {"0", "0-1", "0-3,8,10-11", "5,7,9"})
    void cpulistRoundTrips(String cpulist) {
        assertThat(CpuSet.parse(cpulist + "\n")).hasToString(cpulist);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0-3,8"})
    void cpulistRangesExpand(String cpulist) {
        assertThat(CpuSet.parse(cpulist)).isEqualTo(CpuSet.of(0, 1, 2, 3, 8));
    }
}
