package io.edp.engine.fastpath;

/** One flow cache entry as a top-flows snapshot reports it: its key, counters and action. */
public record CachedFlow(String flow, long packets, long bytes, String action) {
}
