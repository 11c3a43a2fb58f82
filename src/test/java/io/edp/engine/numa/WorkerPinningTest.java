package io.edp.engine.numa;

import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.Mode;
import io.edp.engine.nic.PortConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** Pinning the engine's worker threads, read back from the kernel on each worker thread. */
class WorkerPinningTest {

    private static Engine twoNodeEngine() {
        return Engine.start(EngineConfig.builder().mode(Mode.EDP_STANDARD)
                .port(PortConfig.loopback(0, "uplink0", 0, 2, 1))
                .workers(0, 1).workers(1, 1).mbufs(1024).build());
    }

    @Test
    void enabledPinningPutsEachWorkerOnItsNodesCpus() {
        // one CPU per node of this host's CPUs, so pinning is a real restriction even on a one-node machine
        CpuSet allowed = CpuAffinity.currentThreadAffinity();
        int first = allowed.cpus().first();
        int last = allowed.cpus().last();
        TreeMap<Integer, CpuSet> nodes = new TreeMap<>(Map.of(0, CpuSet.of(first), 1, CpuSet.of(last)));
        try (Engine engine = twoNodeEngine()) {
            Map<Integer, CpuSet> affinity = engine.pinWorkers(new WorkerPinning(true, new NumaTopology(nodes)));

            assertThat(affinity).containsEntry(0, nodes.get(0)).containsEntry(1, nodes.get(1));
        }
    }

    @Test
    void pinningIsOffByDefault() {
        try (Engine engine = twoNodeEngine()) {
            assertThat(engine.pinWorkers(WorkerPinning.disabled())).isEmpty();
        }
    }
}
