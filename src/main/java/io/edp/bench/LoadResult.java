package io.edp.bench;

/** What a load generator measured in one window: answers completed, how many failed, and the latency percentiles. */
record LoadResult(long requests, long errors, double seconds, double p50Millis, double p99Millis) {

    double requestsPerSecond() {
        return requests / seconds;
    }
}
