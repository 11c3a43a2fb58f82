package io.edp.engine.tlb;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Synthetic loads for deterministic TLB scenarios: every queue has a load (share of one worker) that the test
 * sets; {@link #advance} moves the clock and charges each queue's busy time to its current owner.
 */
final class SimulatedEngine implements BalancedEngine, InstantSource {

    private final Map<Integer, Integer> workerNodes = new TreeMap<>();
    private final Map<Integer, Long> workerBusy = new TreeMap<>();
    private final Map<QueueId, Integer> owner = new TreeMap<>();
    private final Map<QueueId, Integer> queueNodes = new TreeMap<>();
    private final Map<QueueId, Double> load = new TreeMap<>();
    private final Map<QueueId, Long> queueBusy = new TreeMap<>();
    private final List<QueueMove> moves = new ArrayList<>();
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    SimulatedEngine worker(int worker, int node) {
        workerNodes.put(worker, node);
        workerBusy.put(worker, 0L);
        return this;
    }

    SimulatedEngine queue(int rxQueue, int ownerWorker, int node, double queueLoad) {
        QueueId queue = new QueueId(0, rxQueue);
        owner.put(queue, ownerWorker);
        queueNodes.put(queue, node);
        load.put(queue, queueLoad);
        queueBusy.put(queue, 0L);
        return this;
    }

    void setLoad(int rxQueue, double queueLoad) {
        load.put(new QueueId(0, rxQueue), queueLoad);
    }

    void advance(Duration elapsed) {
        now = now.plus(elapsed);
        load.forEach((queue, share) -> {
            long busy = (long) (share * elapsed.toNanos());
            queueBusy.merge(queue, busy, Long::sum);
            workerBusy.merge(owner.get(queue), busy, Long::sum);
        });
    }

    /** Current per-worker load: the sum of the loads of the queues it owns. */
    Map<Integer, Double> workerLoads() {
        Map<Integer, Double> loads = new TreeMap<>();
        workerNodes.keySet().forEach(worker -> loads.put(worker, 0.0));
        owner.forEach((queue, worker) -> loads.merge(worker, load.get(queue), Double::sum));
        return loads;
    }

    double peak() {
        return workerLoads().values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    List<QueueMove> moves() {
        return moves;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public BusySample sampleBusy() {
        List<BusySample.Worker> workers = new ArrayList<>();
        workerNodes.forEach((worker, node) ->
                workers.add(new BusySample.Worker(worker, node, workerBusy.get(worker), 0)));
        List<BusySample.Queue> queues = new ArrayList<>();
        owner.forEach((queue, worker) ->
                queues.add(new BusySample.Queue(queue, worker, queueNodes.get(queue), queueBusy.get(queue), 0)));
        return new BusySample(now.toEpochMilli() * 1_000_000L, workers, queues);
    }

    @Override
    public void moveQueue(QueueId queue, int toWorker) {
        moves.add(new QueueMove(queue, owner.get(queue), toWorker, load.get(queue)));
        owner.put(queue, toWorker);
    }
}
