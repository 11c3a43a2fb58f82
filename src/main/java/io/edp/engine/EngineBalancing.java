package io.edp.engine;

import io.edp.engine.tlb.BalancedEngine;
import io.edp.engine.tlb.BusySample;
import io.edp.engine.tlb.QueueId;
import io.edp.engine.tlb.ThreadLoadBalancer;
import java.util.ArrayList;
import java.util.List;

/**
 * Lets a {@link ThreadLoadBalancer} balance a running {@link Engine}: its stats in, its queue handoff out. The
 * engine runs its own balancer through it ({@link EngineConfig#tlb()}); a benchmark that wants to run cycles at
 * moments of its choosing builds one over an engine whose balancer is off. It lives here, not in
 * {@code io.edp.engine.tlb}, so the balancer does not depend on the engine that owns it.
 */
public record EngineBalancing(Engine engine) implements BalancedEngine {

    @Override
    public BusySample sampleBusy() {
        EngineStats stats = engine.stats();
        List<BusySample.Worker> workers = new ArrayList<>();
        for (EngineStats.WorkerStats worker : stats.workers()) {
            workers.add(new BusySample.Worker(worker.id(), worker.numaNode(), worker.busyNanos(), worker.rxPackets()));
        }
        List<BusySample.Queue> queues = new ArrayList<>();
        for (EngineStats.QueueStats queue : stats.queues()) {
            queues.add(new BusySample.Queue(new QueueId(queue.port(), queue.queue()), queue.worker(),
                    queue.numaNode(), queue.busyNanos(), queue.packets()));
        }
        return new BusySample(stats.takenAtNanos(), workers, queues);
    }

    @Override
    public void moveQueue(QueueId queue, int toWorker) {
        engine.moveQueue(queue.port(), queue.rxQueue(), toWorker);
    }
}
