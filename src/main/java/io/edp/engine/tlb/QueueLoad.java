package io.edp.engine.tlb;

/**
 * The load one RX queue put on its owner in an interval, in the same unit as worker utilization. A queue
 * belongs on the NUMA node of its NIC.
 */
public record QueueLoad(QueueId queue, int owner, int numaNode, double load) {
}
