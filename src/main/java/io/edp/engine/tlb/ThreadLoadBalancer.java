package io.edp.engine.tlb;

import io.edp.engine.process.FatalErrors;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The Thread Load Balancer: every interval it turns the engine's busy counters into per-worker utilization
 * and per-queue load, and when a worker is at or over the threshold or the topology changed, asks the
 * {@link LoadPlanner} for a new assignment and applies it through the engine — only if it lowers the peak
 * by the improvement threshold, and never sooner than the minimum time after the previous moves.
 *
 * <p>{@link #runCycle()} is one cycle; {@link #start()} runs it on a daemon thread every interval until
 * {@link #close()}. {@link #reconfigure} swaps the settings of a running balancer and keeps its history, its last
 * sample and the time of its last moves. Tests call {@code runCycle()} with an injected clock.
 *
 * <p>Locks: a cycle holds this balancer's monitor while it moves queues (which waits for the engine);
 * {@link #reconfigure} and {@link #stats} never take it, so an engine may call them while it holds its own lock.
 */
public final class ThreadLoadBalancer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ThreadLoadBalancer.class.getName());

    private static final LoadSnapshot NO_LOADS = new LoadSnapshot(List.of(), List.of());

    private final BalancedEngine engine;
    private final InstantSource clock;
    private final LoadPlanner planner = new LoadPlanner();
    private volatile TlbConfig config;

    // cycle state, written by cycles under this; the volatile fields are what stats() reads without that lock
    private BusySample previous;
    private Instant lastMovesAt;
    private volatile LoadSnapshot lastLoads = NO_LOADS;
    /** Decisions, oldest first; an immutable list replaced on every decision. */
    private volatile List<TlbDecision> history = List.of();

    // scheduling, guarded by the scheduling lock
    private final Object scheduling = new Object();
    private ScheduledExecutorService scheduler;
    private ScheduledFuture<?> cycles;
    private boolean started;
    private boolean closed;

    public ThreadLoadBalancer(TlbConfig config, BalancedEngine engine, InstantSource clock) {
        this.config = config;
        this.engine = engine;
        this.clock = clock;
    }

    public TlbConfig config() {
        return config;
    }

    /** Cycles every interval from now on while the settings say enabled; no-op once closed. */
    public void start() {
        synchronized (scheduling) {
            if (!closed && !started) {
                started = true;
                schedule();
            }
        }
    }

    /**
     * New settings, effective from the next cycle: a started balancer starts or stops cycling as {@code enabled}
     * says and cycles at the new interval. History (trimmed to the new size), the last sample and the anti-flap
     * time are kept, so the balancer neither forgets its decisions nor moves sooner than it would have.
     */
    public void reconfigure(TlbConfig next) {
        synchronized (scheduling) {
            TlbConfig before = config;
            config = next;
            if (started && !closed
                    && (before.enabled() != next.enabled() || !before.interval().equals(next.interval()))) {
                schedule();
            }
        }
    }

    /** (Re)schedules the cycles at the current interval, or cancels them when disabled; holds the scheduling lock. */
    private void schedule() {
        if (cycles != null) {
            cycles.cancel(false); // a cycle in progress finishes its moves
            cycles = null;
        }
        TlbConfig now = config;
        if (!now.enabled()) {
            return;
        }
        if (scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(task -> Thread.ofPlatform()
                    .name("edp-tlb").daemon(true).unstarted(task));
        }
        long period = now.interval().toNanos();
        cycles = scheduler.scheduleWithFixedDelay(this::runCycleLogged, period, period, TimeUnit.NANOSECONDS);
    }

    private void runCycleLogged() {
        try {
            runCycle();
        } catch (RuntimeException e) {
            // one failed cycle (a queue removed while moving it) must not stop the balancer
            LOG.log(System.Logger.Level.WARNING, "TLB cycle failed", e);
        } catch (OutOfMemoryError e) {
            FatalErrors.haltOnOutOfMemory(e); // the scheduler would keep it in a future nobody reads
        }
    }

    /** One cycle. Returns the decision if the cycle was triggered. */
    public synchronized Optional<TlbDecision> runCycle() {
        TlbConfig settings = config; // one set of settings for the whole cycle
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
        if (!topologyChanged && loads.peakUtilization() < settings.threshold()) {
            return Optional.empty();
        }
        Trigger trigger = topologyChanged ? Trigger.TOPOLOGY : Trigger.OVERLOAD;
        Plan plan = planner.plan(loads, trigger, settings.threshold());
        TlbDecision.Outcome outcome = outcome(settings, plan, now);
        if (outcome == TlbDecision.Outcome.APPLIED) {
            for (QueueMove move : plan.moves()) {
                engine.moveQueue(move.queue(), move.toWorker());
            }
            lastMovesAt = now;
        }
        return Optional.of(remember(TlbDecision.of(now, trigger, outcome, plan), settings.historySize()));
    }

    private TlbDecision.Outcome outcome(TlbConfig settings, Plan plan, Instant now) {
        if (plan.moves().isEmpty()) {
            return TlbDecision.Outcome.NO_BETTER_ASSIGNMENT;
        }
        if (lastMovesAt != null && Duration.between(lastMovesAt, now).compareTo(settings.minTimeBetweenMoves()) < 0) {
            return TlbDecision.Outcome.TOO_SOON;
        }
        if (plan.numaCorrections() == 0 && plan.improvement() < settings.improvementThreshold()) {
            return TlbDecision.Outcome.GAIN_TOO_SMALL;
        }
        return TlbDecision.Outcome.APPLIED;
    }

    private TlbDecision remember(TlbDecision decision, int historySize) {
        List<TlbDecision> decisions = new ArrayList<>(history);
        decisions.add(decision);
        history = trimmed(decisions, historySize);
        return decision;
    }

    /** The newest {@code size} decisions; a smaller history size set by {@link #reconfigure} applies at once. */
    private static List<TlbDecision> trimmed(List<TlbDecision> decisions, int size) {
        return List.copyOf(decisions.subList(Math.max(0, decisions.size() - size), decisions.size()));
    }

    /** Triggered decisions, oldest first, at most {@link TlbConfig#historySize()}. */
    public List<TlbDecision> history() {
        return trimmed(history, config.historySize());
    }

    /** Loads measured in the last cycle. */
    public Optional<LoadSnapshot> lastLoads() {
        LoadSnapshot loads = lastLoads;
        return loads == NO_LOADS ? Optional.empty() : Optional.of(loads);
    }

    /** What the manager shows: settings, the loads of the last cycle (empty before the second), recent decisions. */
    public TlbStats stats() {
        return new TlbStats(config, lastLoads, history());
    }

    /**
     * Busy time between two samples over the time between them; a queue or worker that just appeared counts from zero.
     * A burst's busy time counts when the burst ends, so a long one that began before {@code before} (the first
     * packets' slow path and compiling, for one) can give a short interval more busy time than its length: such
     * a worker is at 1.0, and its queues' loads are scaled down with it (no thread is busier than its whole time).
     */
    static LoadSnapshot loads(BusySample before, BusySample after) {
        double nanos = Math.max(1, after.takenAtNanos() - before.takenAtNanos());
        Map<Integer, Long> workerBusy = new HashMap<>();
        before.workers().forEach(worker -> workerBusy.put(worker.worker(), worker.busyNanos()));
        Map<QueueId, Long> queueBusy = new HashMap<>();
        before.queues().forEach(queue -> queueBusy.put(queue.queue(), queue.busyNanos()));
        List<WorkerLoad> workers = new ArrayList<>();
        Map<Integer, Double> overCounted = new HashMap<>();
        for (BusySample.Worker worker : after.workers()) {
            double busy = Math.max(0, worker.busyNanos() - workerBusy.getOrDefault(worker.worker(), 0L)) / nanos;
            if (busy > 1) {
                overCounted.put(worker.worker(), busy);
            }
            workers.add(new WorkerLoad(worker.worker(), worker.numaNode(), Math.min(1, busy)));
        }
        List<QueueLoad> queues = new ArrayList<>();
        for (BusySample.Queue queue : after.queues()) {
            double busy = Math.max(0, queue.busyNanos() - queueBusy.getOrDefault(queue.queue(), 0L)) / nanos;
            queues.add(new QueueLoad(queue.queue(), queue.owner(), queue.numaNode(),
                    busy / overCounted.getOrDefault(queue.owner(), 1.0)));
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

    /** Stops cycling for good and waits for a cycle in progress to finish its moves. */
    @Override
    public void close() {
        ScheduledExecutorService running;
        synchronized (scheduling) {
            closed = true;
            running = scheduler;
            scheduler = null;
            cycles = null;
        }
        if (running != null) {
            running.shutdown(); // cancels the periodic cycles; no interrupt in the middle of a move
            try {
                running.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
