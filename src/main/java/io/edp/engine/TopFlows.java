package io.edp.engine;

import java.time.Instant;
import java.util.List;

/**
 * The busiest cached flows as each worker's last snapshot pass found them ({@link Engine#topFlows()}): up to
 * {@code perWorker} flows of each worker, in no particular order. {@code takenAt} is when the oldest of those passes
 * began: every flow cached then (and still cached when the pass ended) is in it; null before any worker finished a
 * pass.
 */
public record TopFlows(Instant takenAt, int perWorker, List<WorkerPass> passes, List<FlowStats> flows) {

    /** One worker's last pass: when it began and the worker time it cost. */
    public record WorkerPass(int worker, Instant takenAt, long passNanos, int flows) {
    }
}
