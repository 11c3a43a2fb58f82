package io.edp.engine.fastpath;

/** One flow cache entry as top-flows reports it. */
public record CachedFlow(String flow, long packets, long bytes, int actionIndex, int generation) {
}
