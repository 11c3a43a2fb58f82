package io.edp.engine.tlb;

import java.util.List;

/**
 * Cumulative counters the engine publishes: busy nanoseconds (time in non-empty bursts) and packets per worker
 * and per RX queue since start, plus the current owner of every queue, taken at {@code takenAtNanos} of the
 * engine's clock. The TLB turns two samples into loads.
 */
public record BusySample(long takenAtNanos, List<Worker> workers, List<Queue> queues) {

    public BusySample {
        workers = List.copyOf(workers);
        queues = List.copyOf(queues);
    }

    public record Worker(int worker, int numaNode, long busyNanos, long packets) {
    }

    public record Queue(QueueId queue, int owner, int numaNode, long busyNanos, long packets) {
    }
}
