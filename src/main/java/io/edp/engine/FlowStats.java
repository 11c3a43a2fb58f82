package io.edp.engine;

/** One cached flow as {@link Engine#topFlows(int)} reports it: its key, counters and action. */
public record FlowStats(int worker, String flow, long packets, long bytes, String action) {
}
