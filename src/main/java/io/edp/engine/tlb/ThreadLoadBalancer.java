package io.edp.engine.tlb;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The Thread Load Balancer: every interval it turns the engine's busy counters into per-worker utilization
 * and per-queue load, and when a worker is at or over the threshold or the topology changed, asks the
 * {@link LoadPlanner} for a new assignment and applies it through the engine — only if it lowers the peak
 * by the improvement threshold, and never sooner than the minimum time after the previous moves.
 *
 * <p>{@link #runCycle()} is one cycle; {@link #start()} runs it on a daemon thread every interval. Tests call
 * {@code runCycle()} with an injected clock.
 */
public final class ThreadLoadBalancer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ThreadLoadBalancer.class.getName());

    private final TlbConfig config;
    private final BalancedEngine engine;
    private final InstantSource clock;
    private final LoadPlanner planner = new LoadPlanner();
    private final ArrayDeque<TlbDecision> history = new ArrayDeque<>();
    private ScheduledExecutorService scheduler;

    private BusySample previous;
    private Instant lastMovesAt;
    private LoadSnapshot lastLoads;

    public ThreadLoadBalancer(TlbConfig config, BalancedEngine engine, InstantSource clock) {
        this.config = config;
        this.engine = engine;
        this.clock = clock;
    }

    public TlbConfig config() {
        return config;
    }

    /** Starts cycling every interval if the balancer is enabled. */
    public synchronized void start() {
        if (!config.enabled() || scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(task -> Thread.ofPlatform()
                .name("edp-tlb").daemon(true).unstarted(task));
        long period = config.interval().toNanos();
        scheduler.scheduleWithFixedDelay(this::runCycleLogged, period, period, TimeUnit.NANOSECONDS);
    }

    private void runCycleLogged() {
        try {
            runCycle();
        } catch (RuntimeException e) {
            // one failed cycle (a queue removed while moving it) must not stop the balancer
            LOG.log(System.Logger.Level.WARNING, "TLB cycle failed", e);
        }
    }

    /** One cycle. Returns the decision if the cycle was triggered. */
    public synchronized Optional<TlbDecision> runCycle() {
        Instant now = clock.instant();
        BusySample sample = engine.sampleBusy();
        if (previous == null) {
            previous = sample;
            return Optional.empty();
        }
        LoadSnapshot loads = loads(previous, sample);
        boolean topologyChanged = !topology(previous).equals(topology(sample));
        previous = sample;
        lastLoads = loads;
        if (!topologyChanged && loads.peakUtilization() < config.threshold()) {
            return Optional.empty();
        }
        Trigger trigger = topologyChanged ? Trigger.TOPOLOGY : Trigger.OVERLOAD;
        Plan plan = planner.plan(loads, trigger, config.threshold());
        TlbDecision.Outcome outcome = outcome(plan, now);
        if (outcome == TlbDecision.Outcome.APPLIED) {
            for (QueueMove move : plan.moves()) {
                engine.moveQueue(move.queue(), move.toWorker());
            }
            lastMovesAt = now;
        }
        return Optional.of(remember(TlbDecision.of(now, trigger, outcome, plan)));
    }

    private TlbDecision.Outcome outcome(Plan plan, Instant now) {
        if (plan.moves().isEmpty()) {
            return TlbDecision.Outcome.NO_BETTER_ASSIGNMENT;
        }
        if (lastMovesAt != null && Duration.between(lastMovesAt, now).compareTo(config.minTimeBetweenMoves()) < 0) {
            return TlbDecision.Outcome.TOO_SOON;
        }
        if (plan.numaCorrections() == 0 && plan.improvement() < config.improvementThreshold()) {
            return TlbDecision.Outcome.GAIN_TOO_SMALL;
        }
        return TlbDecision.Outcome.APPLIED;
    }

    private TlbDecision remember(TlbDecision decision) {
        if (history.size() == config.historySize()) {
            history.removeFirst();
        }
        history.addLast(decision);
        return decision;
    }

    /** Triggered decisions, oldest first, at most {@link TlbConfig#historySize()}. */
    public synchronized List<TlbDecision> history() {
        return List.copyOf(history);
    }

    /** Loads measured in the last cycle. */
    public synchronized Optional<LoadSnapshot> lastLoads() {
        return Optional.ofNullable(lastLoads);
    }

    /** What the manager shows: settings, the loads of the last cycle (empty before the second), recent decisions. */
    public synchronized TlbStats stats() {
        LoadSnapshot loads = lastLoads == null ? new LoadSnapshot(List.of(), List.of()) : lastLoads;
        return new TlbStats(config, loads, List.copyOf(history));
    }

    /** Busy time between two samples over the time between them; a queue or worker that just appeared counts from zero. */
    static LoadSnapshot loads(BusySample before, BusySample after) {
        double nanos = Math.max(1, after.takenAtNanos() - before.takenAtNanos());
        Map<Integer, Long> workerBusy = new HashMap<>();
        before.workers().forEach(worker -> workerBusy.put(worker.worker(), worker.busyNanos()));
        Map<QueueId, Long> queueBusy = new HashMap<>();
        before.queues().forEach(queue -> queueBusy.put(queue.queue(), queue.busyNanos()));
        List<WorkerLoad> workers = new ArrayList<>();
        for (BusySample.Worker worker : after.workers()) {
            long busy = worker.busyNanos() - workerBusy.getOrDefault(worker.worker(), 0L);
            workers.add(new WorkerLoad(worker.worker(), worker.numaNode(), Math.max(0, busy) / nanos));
        }
        List<QueueLoad> queues = new ArrayList<>();
        for (BusySample.Queue queue : after.queues()) {
            long busy = queue.busyNanos() - queueBusy.getOrDefault(queue.queue(), 0L);
            queues.add(new QueueLoad(queue.queue(), queue.owner(), queue.numaNode(), Math.max(0, busy) / nanos));
        }
        return new LoadSnapshot(workers, queues);
    }

    /** Which workers and queues exist: a change (a vNIC or queue came or went) triggers a rebalance. */
    private record Topology(Set<Integer> workers, Set<QueueId> queues) {
    }

    private static Topology topology(BusySample sample) {
        Set<Integer> workers = new HashSet<>();
        sample.workers().forEach(worker -> workers.add(worker.worker()));
        Set<QueueId> queues = new HashSet<>();
        sample.queues().forEach(queue -> queues.add(queue.queue()));
        return new Topology(workers, queues);
    }

    /** Stops cycling and waits for a cycle in progress to end. */
    @Override
    public void close() {
        ScheduledExecutorService running;
        synchronized (this) {
            running = scheduler;
            scheduler = null;
        }
        if (running != null) {
            running.shutdownNow();
            try {
                running.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
