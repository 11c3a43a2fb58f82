package io.edp.engine;

/** One cached flow of a worker as {@link Engine#topFlows()} reports it: its key, counters and action. */
public record FlowStats(int worker, String flow, long packets, long bytes, String action) {
}
