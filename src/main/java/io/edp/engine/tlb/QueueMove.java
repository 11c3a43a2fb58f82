package io.edp.engine.tlb;

/** One queue changing owner. */
public record QueueMove(QueueId queue, int fromWorker, int toWorker, double load) {
}
