package io.edp.manager.host;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/** A row of host_numa_node. */
@Embeddable
record HostNumaNode(@Column(name = "node_id") int nodeId, @Column(name = "cpu_cores") int[] cpuCores) {
}
