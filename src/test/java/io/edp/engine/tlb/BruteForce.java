package io.edp.engine.tlb;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Exhaustive search over every way to move k queues, to check the planner's move counts against. */
final class BruteForce {

    private BruteForce() {
    }

    /** The fewest moves (up to {@code atMost}) that bring every worker below {@code limit}; atMost + 1 if none. */
    static int fewestMovesBelow(LoadSnapshot snapshot, double limit, int atMost) {
        for (int k = 0; k <= atMost; k++) {
            if (search(snapshot, owners(snapshot, List.of()), 0, k, limit)) {
                return k;
            }
        }
        return atMost + 1;
    }

    private static boolean search(LoadSnapshot snapshot, Map<QueueId, Integer> owners, int from, int left,
                                  double limit) {
        if (left == 0) {
            return peak(snapshot, owners) < limit;
        }
        List<QueueLoad> queues = snapshot.queues();
        for (int q = from; q < queues.size(); q++) {
            QueueLoad queue = queues.get(q);
            for (WorkerLoad worker : snapshot.workers()) {
                if (worker.worker() != queue.owner() && worker.numaNode() == queue.numaNode()) {
                    owners.put(queue.queue(), worker.worker());
                    if (search(snapshot, owners, q + 1, left - 1, limit)) {
                        return true;
                    }
                    owners.put(queue.queue(), queue.owner());
                }
            }
        }
        return false;
    }

    static Map<QueueId, Integer> owners(LoadSnapshot snapshot, List<QueueMove> moves) {
        Map<QueueId, Integer> owners = new HashMap<>();
        snapshot.queues().forEach(queue -> owners.put(queue.queue(), queue.owner()));
        moves.forEach(move -> owners.put(move.queue(), move.toWorker()));
        return owners;
    }

    /** Peak worker load when the snapshot's queues have {@code owners}; workers keep their unattributed load. */
    static double peak(LoadSnapshot snapshot, Map<QueueId, Integer> owners) {
        Map<Integer, Double> loads = new HashMap<>();
        snapshot.workers().forEach(worker -> loads.put(worker.worker(), worker.utilization()));
        snapshot.queues().forEach(queue -> {
            loads.merge(queue.owner(), -queue.load(), Double::sum);
            loads.merge(owners.get(queue.queue()), queue.load(), Double::sum);
        });
        return loads.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
}
