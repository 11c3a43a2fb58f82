package io.edp.engine.numa;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class NumaTopologyTest {

    @Test
    void readsEveryNodesCpulist(@TempDir Path sysfs) throws IOException {
        Files.createDirectories(sysfs.resolve("node0"));
        Files.createDirectories(sysfs.resolve("node1"));
        Files.writeString(sysfs.resolve("node0/cpulist"), "0-3\n");
        Files.writeString(sysfs.resolve("node1/cpulist"), "4-7\n");
        Files.writeString(sysfs.resolve("online"), "0-1\n");

        NumaTopology topology = NumaTopology.read(sysfs);

        assertThat(topology.nodes()).containsOnlyKeys(0, 1);
        assertThat(topology.cpusOf(1)).contains(CpuSet.parse("4-7"));
        assertThat(topology.cpusOf(2)).isEmpty();
    }

    @Test
    void hostWithoutSysfsHasNoNodes(@TempDir Path empty) {
        assertThat(NumaTopology.read(empty.resolve("missing")).nodes()).isEmpty();
    }
}
