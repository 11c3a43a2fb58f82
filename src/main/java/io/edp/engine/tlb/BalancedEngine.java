package io.edp.engine.tlb;

/** What the TLB needs from the engine. */
public interface BalancedEngine {

    BusySample sampleBusy();

    /** Moves {@code queue} to {@code toWorker}, returning after the old owner has let go of it. */
    void moveQueue(QueueId queue, int toWorker);
}
