package io.edp.engine.tlb;

/** A worker's share of one interval spent in non-empty bursts (0 = idle, 1 = always busy). */
public record WorkerLoad(int worker, int numaNode, double utilization) {
}
