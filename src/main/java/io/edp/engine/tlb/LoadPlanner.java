package io.edp.engine.tlb;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Computes a new queue-to-worker assignment from a {@link LoadSnapshot}; pure and deterministic.
 *
 * <p>A worker's load is its unattributed part (utilization not explained by its queues: polling, timers)
 * plus the loads of the queues it owns. Queues only move between workers of their NIC's NUMA node; a queue
 * found on a worker of another node is first moved home ("NUMA correction"). Then, per node:
 * <ol>
 *   <li><b>Goal.</b> Bin packing, largest queue first into the least-loaded worker (LPT), tells what the best
 *       peak is. On {@link Trigger#OVERLOAD} the goal is every worker below the threshold if packing can get
 *       there, else the packing's peak; on {@link Trigger#TOPOLOGY} it is the packing's peak.</li>
 *   <li><b>Fewest moves, exactly.</b> Try every way to move 1, then 2, 3 ... queues from the current
 *       assignment; the first size that meets the goal wins (lowest peak among plans of that size). Queues
 *       that need not move stay, which keeps their flows in a warm flow cache. The search has a budget
 *       ({@value #SEARCH_BUDGET} candidate moves), ample for 16 queues on 4 workers up to 5 moves.</li>
 *   <li><b>Beyond the budget.</b> Move one queue at a time from the hottest worker to the coldest — the queue
 *       that lowers the larger of the two loads most — until the goal is met; if that gets stuck, use the
 *       LPT packing itself, ties broken in favour of the current owner.</li>
 * </ol>
 */
public final class LoadPlanner {

    private static final double EPSILON = 1e-9;
    private static final int SEARCH_BUDGET = 2_000_000;

    private final long searchBudget;

    public LoadPlanner() {
        this(SEARCH_BUDGET);
    }

    /** A planner whose exhaustive search gives up after {@code searchBudget} candidate moves. */
    LoadPlanner(long searchBudget) {
        this.searchBudget = searchBudget;
    }

    public Plan plan(LoadSnapshot snapshot, Trigger trigger, double threshold) {
        Placement placement = new Placement(snapshot);
        SortedMap<Integer, Double> before = new TreeMap<>(placement.load);
        int numaCorrections = placement.correctNuma();
        for (int node : placement.nodes()) {
            balanceNode(placement, node, trigger, threshold, searchBudget);
        }
        return new Plan(placement.movesFrom(snapshot), before, placement.load, numaCorrections);
    }

    private static void balanceNode(Placement placement, int node, Trigger trigger, double threshold,
                                    long searchBudget) {
        List<Integer> workers = placement.workersOf(node);
        if (workers.size() < 2) {
            return;
        }
        Map<QueueId, Integer> packed = placement.packLargestFirst(workers);
        double packedPeak = placement.peakOf(workers, packed);
        double limit = trigger == Trigger.OVERLOAD && packedPeak < threshold ? threshold : packedPeak + EPSILON;
        if (placement.peakOf(workers, placement.owner) < limit) {
            return;
        }
        Optional<Map<QueueId, Integer>> fewest = new FewestMoves(placement, workers, limit, searchBudget).search();
        if (fewest.isPresent()) {
            fewest.get().forEach(placement::move);
            return;
        }
        placement.descend(workers, limit);
        double descended = placement.peakOf(workers, placement.owner);
        if (descended >= limit && packedPeak < descended - EPSILON) {
            packed.forEach(placement::move);
        }
    }

    /**
     * Exhaustive search for the fewest moves that bring every worker of a node below a limit, on primitive
     * arrays. Empty when the goal needs more candidate moves than the budget allows.
     */
    private static final class FewestMoves {
        private final List<QueueId> queues;
        private final double[] queueLoad;
        private final int[] owner;
        private final double[] workerLoad;
        private final double limit;
        private final int[] chosen;
        private final int[] target;
        private int[] bestChosen;
        private int[] bestTarget;
        private double bestPeak;
        private long budget;
        private final List<Integer> workers;

        FewestMoves(Placement placement, List<Integer> workers, double limit, long budget) {
            this.workers = workers;
            this.budget = budget;
            this.queues = placement.queuesOwnedBy(workers);
            this.queueLoad = new double[queues.size()];
            this.owner = new int[queues.size()];
            for (int q = 0; q < queues.size(); q++) {
                queueLoad[q] = placement.queues.get(queues.get(q)).load();
                owner[q] = workers.indexOf(placement.owner.get(queues.get(q)));
            }
            this.workerLoad = new double[workers.size()];
            for (int w = 0; w < workers.size(); w++) {
                workerLoad[w] = placement.load.get(workers.get(w));
            }
            this.limit = limit;
            this.chosen = new int[queues.size()];
            this.target = new int[queues.size()];
        }

        Optional<Map<QueueId, Integer>> search() {
            for (int moves = 1; moves <= queues.size(); moves++) {
                bestChosen = null;
                if (!tryMoves(0, 0, moves)) {
                    return Optional.empty();
                }
                if (bestChosen != null) {
                    Map<QueueId, Integer> plan = new TreeMap<>();
                    for (int i = 0; i < moves; i++) {
                        plan.put(queues.get(bestChosen[i]), workers.get(bestTarget[i]));
                    }
                    return Optional.of(plan);
                }
            }
            return Optional.empty();
        }

        /** Moves queues from index {@code from} on; false when the budget ran out. */
        private boolean tryMoves(int depth, int from, int moves) {
            if (depth == moves) {
                double peak = 0;
                for (double load : workerLoad) {
                    peak = Math.max(peak, load);
                }
                if (peak < limit && (bestChosen == null || peak < bestPeak - EPSILON)) {
                    bestPeak = peak;
                    bestChosen = chosen.clone();
                    bestTarget = target.clone();
                }
                return true;
            }
            for (int q = from; q <= queues.size() - (moves - depth); q++) {
                for (int w = 0; w < workerLoad.length; w++) {
                    if (w == owner[q]) {
                        continue;
                    }
                    if (--budget < 0) {
                        return false;
                    }
                    chosen[depth] = q;
                    target[depth] = w;
                    workerLoad[owner[q]] -= queueLoad[q];
                    workerLoad[w] += queueLoad[q];
                    boolean withinBudget = tryMoves(depth + 1, q + 1, moves);
                    workerLoad[w] -= queueLoad[q];
                    workerLoad[owner[q]] += queueLoad[q];
                    if (!withinBudget) {
                        return false;
                    }
                }
            }
            return true;
        }
    }

    /** The working state: current owners and loads, changed move by move. */
    private static final class Placement {
        private final Map<Integer, Integer> nodeOfWorker = new TreeMap<>();
        private final Map<Integer, Double> base = new TreeMap<>();
        private final TreeMap<Integer, Double> load = new TreeMap<>();
        private final Map<QueueId, Integer> owner = new TreeMap<>();
        private final Map<QueueId, QueueLoad> queues = new TreeMap<>();

        Placement(LoadSnapshot snapshot) {
            for (WorkerLoad worker : snapshot.workers()) {
                nodeOfWorker.put(worker.worker(), worker.numaNode());
                base.put(worker.worker(), worker.utilization());
            }
            for (QueueLoad queue : snapshot.queues()) {
                if (nodeOfWorker.containsKey(queue.owner())) {
                    queues.put(queue.queue(), queue);
                    owner.put(queue.queue(), queue.owner());
                    base.merge(queue.owner(), -queue.load(), Double::sum);
                }
            }
            base.replaceAll((worker, unattributed) -> Math.max(0, unattributed));
            load.putAll(base);
            owner.forEach((queue, worker) -> load.merge(worker, queues.get(queue).load(), Double::sum));
        }

        TreeSet<Integer> nodes() {
            return new TreeSet<>(nodeOfWorker.values());
        }

        List<Integer> workersOf(int node) {
            List<Integer> workers = new ArrayList<>();
            nodeOfWorker.forEach((worker, workerNode) -> {
                if (workerNode == node) {
                    workers.add(worker);
                }
            });
            return workers;
        }

        /** Queues owned by a worker of another node go to the least-loaded worker of their own node. */
        int correctNuma() {
            int corrections = 0;
            for (QueueLoad queue : largestFirst(List.copyOf(queues.keySet()))) {
                List<Integer> home = workersOf(queue.numaNode());
                if (!home.isEmpty() && nodeOfWorker.get(owner.get(queue.queue())) != queue.numaNode()) {
                    move(queue.queue(), leastLoaded(home, load, -1));
                    corrections++;
                }
            }
            return corrections;
        }

        /** The queues a node's workers own, LPT-packed onto those workers; ties go to the current owner. */
        Map<QueueId, Integer> packLargestFirst(List<Integer> workers) {
            Map<Integer, Double> bins = new TreeMap<>();
            for (int worker : workers) {
                bins.put(worker, base.get(worker));
            }
            Map<QueueId, Integer> packed = new TreeMap<>();
            for (QueueLoad queue : largestFirst(queuesOwnedBy(workers))) {
                int worker = leastLoaded(workers, bins, owner.get(queue.queue()));
                bins.merge(worker, queue.load(), Double::sum);
                packed.put(queue.queue(), worker);
            }
            return packed;
        }

        /** Moves one queue at a time from the hottest worker to the coldest until the hottest is below limit. */
        void descend(List<Integer> workers, double limit) {
            for (int step = 0; step < queues.size() * workers.size(); step++) {
                int hottest = hottest(workers);
                if (load.get(hottest) < limit) {
                    return;
                }
                int coldest = leastLoaded(workers, load, -1);
                QueueId best = null;
                double bestPair = load.get(hottest) - EPSILON;
                for (QueueId queue : queuesOwnedBy(List.of(hottest))) {
                    double moved = queues.get(queue).load();
                    double pair = Math.max(load.get(hottest) - moved, load.get(coldest) + moved);
                    if (pair < bestPair) {
                        bestPair = pair;
                        best = queue;
                    }
                }
                if (best == null) {
                    return;
                }
                move(best, coldest);
            }
        }

        double peakOf(List<Integer> workers, Map<QueueId, Integer> assignment) {
            Map<Integer, Double> loads = new TreeMap<>();
            for (int worker : workers) {
                loads.put(worker, base.get(worker));
            }
            assignment.forEach((queue, worker) -> {
                if (loads.containsKey(worker)) {
                    loads.merge(worker, queues.get(queue).load(), Double::sum);
                }
            });
            return loads.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        }

        void move(QueueId queue, int to) {
            double moved = queues.get(queue).load();
            load.merge(owner.get(queue), -moved, Double::sum);
            load.merge(to, moved, Double::sum);
            owner.put(queue, to);
        }

        /** Net moves: a queue moved twice while planning is one move, one moved back is none. */
        List<QueueMove> movesFrom(LoadSnapshot snapshot) {
            List<QueueMove> moves = new ArrayList<>();
            for (QueueLoad queue : snapshot.queues()) {
                Integer now = owner.get(queue.queue());
                if (now != null && now != queue.owner()) {
                    moves.add(new QueueMove(queue.queue(), queue.owner(), now, queue.load()));
                }
            }
            moves.sort(Comparator.comparing(QueueMove::queue));
            return moves;
        }

        List<QueueId> queuesOwnedBy(List<Integer> workers) {
            List<QueueId> owned = new ArrayList<>();
            owner.forEach((queue, worker) -> {
                if (workers.contains(worker)) {
                    owned.add(queue);
                }
            });
            return owned;
        }

        private List<QueueLoad> largestFirst(List<QueueId> ids) {
            List<QueueLoad> sorted = new ArrayList<>();
            for (QueueId id : ids) {
                sorted.add(queues.get(id));
            }
            sorted.sort(Comparator.comparingDouble(QueueLoad::load).reversed().thenComparing(QueueLoad::queue));
            return sorted;
        }

        private int hottest(List<Integer> workers) {
            int hottest = workers.getFirst();
            for (int worker : workers) {
                if (load.get(worker) > load.get(hottest) + EPSILON) {
                    hottest = worker;
                }
            }
            return hottest;
        }

        /** Least loaded of {@code workers}; among equals {@code preferred}, then the lowest id. */
        private static int leastLoaded(List<Integer> workers, Map<Integer, Double> loads, int preferred) {
            int least = workers.getFirst();
            for (int worker : workers) {
                double difference = loads.get(worker) - loads.get(least);
                if (difference < -EPSILON || (Math.abs(difference) <= EPSILON && worker == preferred)) {
                    least = worker;
                }
            }
            return least;
        }
    }
}
