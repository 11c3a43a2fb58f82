package io.edp.engine.tlb;

/** Why the TLB looked for a new assignment. */
public enum Trigger {
    /** A worker was at or over the utilization threshold: bring every worker below it, or as low as packing can. */
    OVERLOAD,
    /** Queues or workers came or went: aim for the best packing. */
    TOPOLOGY
}
