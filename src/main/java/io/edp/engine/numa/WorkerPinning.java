package io.edp.engine.numa;

import java.util.Optional;
import java.util.TreeMap;

/**
 * Pins worker threads to the CPUs of their NUMA node when enabled (off by default: on a shared or virtual
 * host, pinning can make things worse). A worker calls {@link #pinToNode} at the start of its loop.
 */
public final class WorkerPinning {

    private final boolean enabled;
    private final NumaTopology topology;

    public WorkerPinning(boolean enabled, NumaTopology topology) {
        this.enabled = enabled;
        this.topology = topology;
    }

    public static WorkerPinning disabled() {
        return new WorkerPinning(false, new NumaTopology(new TreeMap<>()));
    }

    /** Host topology from sysfs; pinning only where the platform supports it. */
    public static WorkerPinning fromHost(boolean enabled) {
        return new WorkerPinning(enabled && CpuAffinity.isSupported(), NumaTopology.read(NumaTopology.SYSFS_NODES));
    }

    public boolean enabled() {
        return enabled;
    }

    /** Pins the calling thread to {@code node}'s CPUs; returns them, or empty when disabled or the node is unknown. */
    public Optional<CpuSet> pinToNode(int node) {
        if (!enabled) {
            return Optional.empty();
        }
        Optional<CpuSet> cpus = topology.cpusOf(node).filter(set -> !set.isEmpty());
        cpus.ifPresent(CpuAffinity::pinCurrentThread);
        return cpus;
    }
}
