package io.edp.engine.worker;

import io.edp.engine.capture.Captures;
import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.fastpath.TopFlowSelection;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.metrics.Counters;
import io.edp.engine.nic.Doorbell;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packetlog.PacketLogWriter;
import io.edp.engine.reject.RejectReplies;
import io.edp.engine.reject.RouterReplies;
import io.edp.engine.slowpath.ActionTable;
import io.edp.engine.slowpath.FragmentTable;
import io.edp.engine.slowpath.IoChain;
import io.edp.engine.slowpath.RuleCounters;
import io.edp.engine.telemetry.FlowEndReason;
import io.edp.engine.telemetry.FlowMeter;
import io.edp.engine.time.Clock;
import io.edp.engine.verifier.FlowVerifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A data-path worker (the seed's EnsNetWorld thread) as an Agrona-style duty cycle: {@link #doWork()} adopts a new
 * {@link Generation}, runs a control task from its {@link WorkerMailbox} (queue ownership, flushes), polls each
 * owned RX queue for a burst of up to 32 frames and hands it to its {@link BurstPipeline}, then sweeps a bounded
 * slice of its flow cache and of the connection table and walks another slice of the cache for the top-flows
 * snapshot ({@link TopFlowPasses}). A packet meets, in this order:
 * <pre>
 *   rx burst → parse → flow-cache lookup ({@link FastPath}) → miss path ({@link MissPath}, the IOChain)
 *            → install → rewrite / REJECT reply → tx burst ({@link Transmit})
 * </pre>
 * Everything it touches per packet is its own (flow cache, action table, counters, mbuf cache) except the shared
 * connection table on the slow path.
 * <p>
 * A worker cannot wedge its engine: its duty cycle catches every {@link Throwable} ({@link WorkerFaults} counts,
 * logs and survives all but a {@link VirtualMachineError}), frees what a failed burst held, and every wait of the
 * control side on it has a deadline ({@link #RESPONSE_DEADLINE}). {@link #health} tells a worker whose thread died
 * from one that stalled (began no iteration for {@link #STALL_THRESHOLD}; an idle worker sleeps at most
 * {@link #MAX_SLEEP} at a time, so a healthy one begins an iteration at least twice a second).
 * <p>
 * An idle EDP_STANDARD or LEGACY worker sleeps on its {@link Doorbell}: before a cycle that may end in a sleep it
 * arms the doorbell, so whatever arrives during that cycle — frames (the NIC rings), a task, a generation or a stop
 * (the control side rings through {@link #wake}) — is either seen by the cycle or ends the sleep.
 */
public final class Worker implements Runnable {

    public static final int MAX_PORTS = 1024;
    /** Flows a top-flows snapshot keeps, the busiest by packets. */
    public static final int TOP_FLOWS_PER_WORKER = TopFlowPasses.LIMIT;

    // worker counters
    public static final int RX_PACKETS = 0;
    public static final int RX_BYTES = 1;
    public static final int BUSY_NANOS = 2;
    public static final int ITERATIONS = 3;
    public static final int EXCEPTIONS = 4;
    public static final int TX_PACKETS = 5;
    public static final int TX_BYTES = 6;
    public static final int IOCHAIN_PACKETS = 7;
    public static final int COUNTER_COUNT = 8;

    /** How long the control side waits for a worker to run a task or take a generation before giving up. */
    public static final Duration RESPONSE_DEADLINE = Duration.ofSeconds(5);
    /** A running worker that begins no iteration for this long is reported STALLED. */
    public static final Duration STALL_THRESHOLD = Duration.ofSeconds(2);
    /** The longest sleep of an idle worker whose queues all ring: a quarter of the stall threshold. */
    public static final Duration MAX_SLEEP = Duration.ofMillis(500);

    private static final String ENGINE_PACKAGE = "io.edp.engine.";
    /** Flow-cache slots swept per iteration and per millisecond: a worker that slept sweeps what it owes. */
    private static final int SWEEP_BUDGET = 16;
    private static final int MAX_SWEEP_BUDGET = 1 << 17;
    /** Connection-table slots swept per millisecond: a table of the default size once every 16 s per worker. */
    private static final int CONNECTION_SWEEP_BUDGET = 16;
    private static final int ACTION_TABLE_CAPACITY = FlowCache.MAX_ACTIONS;

    private final int id;
    private final int numaNode;
    private final Clock clock;
    private final Supplier<Generation> source;
    private final MbufCache mbufs;
    private final RejectReplies rejectReplies;
    private final RouterReplies routerReplies;
    private final Flood flood;
    private final ActionTable actions = new ActionTable(ACTION_TABLE_CAPACITY);
    private final Counters counters = new Counters(COUNTER_COUNT);
    private final Counters flowCacheCounters = new Counters(FlowCache.COUNTER_COUNT);
    private final Counters drops = new Counters(DropReason.count());
    private final Counters portCounters = new Counters(MAX_PORTS * 2);
    private final IoChain ioChain;
    private final RuleCounters ruleCounters;
    private final FlowMeter flowMeter = new FlowMeter();
    private final FastPath fastPath;
    private final BurstPipeline pipeline;
    private final WorkerMailbox mailbox = new WorkerMailbox();
    private final BusySpinIdleStrategy busySpin = new BusySpinIdleStrategy();
    private final Doorbell doorbell = new Doorbell();
    private final BackoffIdleStrategy backoff = BackoffIdleStrategy.standard(doorbell);
    private final WorkerFaults faults;
    private final FlowVerifier verifier;
    private final TopFlowPasses topFlows = new TopFlowPasses();
    private final long startedNanos;
    private final PacketLogWriter packetLog;

    private RxQueue[] queues = new RxQueue[0];
    private int queueCount;
    private Generation generation;
    private IdleStrategy idle = backoff;
    private int sweptAtMillis;

    private volatile long epoch;
    private volatile int adoptedGeneration;
    private volatile Throwable death;
    /** The last epoch the control side saw and when it first saw it (System.nanoTime): the stall watch. */
    private final AtomicReference<Sighting> sighting = new AtomicReference<>(new Sighting(-1, 0));
    private volatile boolean running;
    private volatile Thread thread;

    private record Sighting(long epoch, long atNanos) {
    }

    public Worker(int id, int numaNode, Clock clock, MbufPool pool, Supplier<Generation> source,
            PacketLogWriter packetLog, Map<Integer, long[]> carriedRuleCounts, Captures captures) {
        CompileUnits.install(); // before the pipeline's code is hot enough to compile
        this.id = id;
        this.numaNode = numaNode;
        this.clock = clock;
        this.source = source;
        this.mbufs = new MbufCache(pool);
        this.faults = new WorkerFaults(id, counters.values(), EXCEPTIONS);
        this.rejectReplies = new RejectReplies(pool);
        this.startedNanos = clock.nanoTime();
        this.verifier = new FlowVerifier(id);
        this.packetLog = packetLog;
        Mbuf mbuf = new Mbuf(pool);
        this.ruleCounters = new RuleCounters(actions, carriedRuleCounts);
        this.ioChain = new IoChain(actions, packetLog, ruleCounters);
        this.fastPath = new FastPath(actions, flowCacheCounters.values(), 0x9E3779B97F4A7C15L * (id + 1), verifier,
                ioChain, flowMeter);
        Transmit transmit = new Transmit(id, mbufs, mbuf, counters.values(), portCounters.values(), drops.values());
        this.routerReplies = new RouterReplies(pool);
        this.flood = new Flood(mbufs, pool, transmit, drops.values());
        this.pipeline = new BurstPipeline(clock, mbufs, mbuf, fastPath,
                new MissPath(ioChain, fastPath, ruleCounters, counters.values()), actions, ruleCounters,
                rejectReplies, routerReplies, flood, transmit, flowMeter, counters.values(), drops.values(), id,
                captures);
    }

    public int id() {
        return id;
    }

    public int numaNode() {
        return numaNode;
    }

    public long startedNanos() {
        return startedNanos;
    }

    /** Heap a worker holds besides its flow cache: its action table, per-port counters and packet-log ring. */
    public static long fixedBytes() {
        return ActionTable.bytes(ACTION_TABLE_CAPACITY) + FragmentTable.BYTES + (long) MAX_PORTS * 2 * Long.BYTES
                + PacketLogWriter.bytes();
    }

    public Counters counters() {
        return counters;
    }

    public Counters flowCacheCounters() {
        return flowCacheCounters;
    }

    public Counters drops() {
        return drops;
    }

    /** Replies to rejected packets: sent, held back by the rate limit, without a buffer ({@link RejectReplies}). */
    public Counters rejectReplyCounters() {
        return rejectReplies.counters();
    }

    /** Packets, bytes and connections per firewall rule, counted by this worker (any thread reads them). */
    public RuleCounters ruleCounters() {
        return ruleCounters;
    }

    /** The router's own packets: answers, time exceeded, rate limited, no buffer ({@link RouterReplies}). */
    public Counters routerReplyCounters() {
        return routerReplies.counters();
    }

    /** Flooded frames: frames, copies, copies without a buffer. */
    public Counters floodCounters() {
        return flood.counters();
    }

    /** The live verifier: its checks, mismatches and last mismatches. */
    public FlowVerifier verifier() {
        return verifier;
    }

    /** TX packets of port p at {@code 2p}, bytes at {@code 2p + 1}. */
    public Counters portCounters() {
        return portCounters;
    }

    /** Incremented at the start of every iteration: a grace period has passed once it moved. */
    public long epoch() {
        return epoch;
    }

    /** The number of the generation the worker runs (0 before its first iteration). */
    public int adoptedGeneration() {
        return adoptedGeneration;
    }

    /**
     * DEAD when the thread ended without {@link #stop()} (with what ended it), STALLED when no iteration began
     * since the control side last saw the epoch move, at least {@code stallNanos} before {@code nowNanos}
     * ({@link System#nanoTime()}), else RUNNING. Any thread; a stall is seen by calling this now and then.
     */
    public WorkerHealth health(long nowNanos, long stallNanos) {
        Thread t = thread;
        if (t == null) {
            return WorkerHealth.running(id);
        }
        if (!t.isAlive()) {
            Throwable cause = death;
            return new WorkerHealth(id, WorkerHealth.State.DEAD, running
                    ? "worker " + id + " died: " + (cause == null ? "its thread ended" : cause)
                    : "worker " + id + " was stopped");
        }
        long seen = epoch;
        Sighting last = sighting.get();
        if (seen != last.epoch()) {
            sighting.compareAndSet(last, new Sighting(seen, nowNanos));
            return WorkerHealth.running(id);
        }
        long silentNanos = nowNanos - last.atNanos();
        if (silentNanos < stallNanos) {
            return WorkerHealth.running(id);
        }
        return new WorkerHealth(id, WorkerHealth.State.STALLED, String.format("worker %d stalled: no iteration "
                + "for %.1f s%s", id, silentNanos / 1e9, where(t)));
    }

    /** Where a stalled thread is: its innermost frame in the engine's code (below it, the JDK's waiting). */
    private static String where(Thread t) {
        StackTraceElement[] stack = t.getStackTrace();
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().startsWith(ENGINE_PACKAGE)) {
                return " (at " + frame + ")";
            }
        }
        return stack.length == 0 ? "" : " (at " + stack[0] + ")";
    }

    /** The flow cache (null before the fast path first ran); worker thread (through {@link #execute}). */
    public FlowCache flowCache() {
        return fastPath.cache();
    }

    public ActionTable actions() {
        return actions;
    }

    /**
     * The busiest flows of the flow cache as the last snapshot pass found them (null before the first pass):
     * copied on the caller's thread, any thread, never waits on the worker.
     */
    public TopFlowSelection.Snapshot topFlows() {
        return topFlows.latest();
    }

    /** The worker's slow path (its fragment table is its own); worker thread (through {@link #execute}). */
    public IoChain ioChain() {
        return ioChain;
    }

    /** IPFIX: the worker's flow records for the exporter, its flow table and sampling. */
    public FlowMeter flowMeter() {
        return flowMeter;
    }

    /** The id of the worker's thread, -1 before {@link #start()}. */
    public long threadId() {
        return thread == null ? -1 : thread.threadId();
    }

    /** Starts polling on a thread of its own. */
    public void start() {
        running = true;
        thread = Thread.ofPlatform().name("edp-worker-" + id).daemon(true).start(this);
    }

    /**
     * Stops the loop after its current iteration and waits up to {@link #RESPONSE_DEADLINE} for the thread to end;
     * false when it did not (a stalled worker is abandoned: its daemon thread ends with the process).
     */
    public boolean stop() {
        running = false;
        Thread t = thread;
        if (t == null) {
            doorbell.close(); // never started (a stepped engine): no thread closes it
            exportRemainingFlows();
            return true;
        }
        doorbell.ring();
        try {
            return t.join(RESPONSE_DEADLINE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Ends any sleep so the next iteration starts now (a publish wants its grace period, a task its run). */
    public void wake() {
        doorbell.ring();
    }

    /** What the worker sleeps on when idle: its sleeps, and the rings that ended them. */
    public Doorbell doorbell() {
        return doorbell;
    }

    /**
     * Runs {@code body} on the worker thread between two bursts and returns when it has run: the worker has
     * finished its current burst (including transmit) before the body sees its state. Before {@link #start()} and
     * after {@link #stop()} it runs on the caller's thread.
     *
     * @throws IllegalStateException when the worker died, or did not run the body within
     *                               {@link #RESPONSE_DEADLINE} (then it never will)
     */
    public synchronized void execute(Consumer<Worker> body) {
        Thread t = thread;
        if (t == null || !running && !t.isAlive()) {
            body.accept(this);
            return;
        }
        mailbox.send(this, t, body);
    }

    /**
     * Test seam: the pipeline of the next burst this worker takes throws {@code fault} while it holds the burst's
     * frames, as a bug on the packet path would. An {@link InternalError} (a {@link VirtualMachineError}) kills the
     * worker; other errors are counted and survived.
     */
    public void injectFault(Error fault) {
        execute(w -> w.pipeline.injectFault(fault));
    }

    /** Starts polling {@code queue}; worker thread (through {@link #execute}) or before {@link #start()}. */
    public void adopt(RxQueue queue) {
        queues = Arrays.copyOf(queues, queueCount + 1);
        queues[queueCount++] = queue;
        queue.owner(id);
        doorbell.attach(queue.driver(), queue.queue());
    }

    /** Stops polling {@code queue}; worker thread (through {@link #execute}). */
    public void release(RxQueue queue) {
        for (int i = 0; i < queueCount; i++) {
            if (queues[i] == queue) {
                doorbell.detach(queue.driver(), queue.queue());
                queues[i] = queues[--queueCount];
                queues[queueCount] = null;
                return;
            }
        }
    }

    /** Drops the flow-cache entries resting on the cleared connections {@code slots}; worker thread. */
    public void forgetConnections(int[] slots) {
        if (fastPath.cache() != null) {
            fastPath.cache().forgetConnections(slots);
        }
    }

    /** Empties the flow cache; worker thread (through {@link #execute}). */
    public void flushFlowCache() {
        fastPath.flush();
    }

    /**
     * The duty cycle until {@link #stop()}: a Throwable out of an iteration is counted and logged, and the next
     * iteration begins; one it cannot survive ends the thread and becomes the reason the worker is DEAD.
     */
    @Override
    public void run() {
        try {
            while (running) {
                try {
                    cycle();
                } catch (Throwable t) {
                    faults.caught(t);
                }
            }
        } catch (Throwable t) {
            death = t;
            throw t; // a process-wide uncaught-exception handler sees it too
        } finally {
            mbufs.flush();
            doorbell.close();
            exportRemainingFlows();
        }
    }

    /** The worker ends: every flow's counters go to the exporter (which the engine closes after the workers). */
    private void exportRemainingFlows() {
        fastPath.close();
        flowMeter.flush(FlowEndReason.FORCED_END);
    }

    /** One duty cycle and what its emptiness costs; the doorbell is armed before a cycle that may end asleep. */
    private void cycle() {
        IdleStrategy before = idle;
        boolean armed = before.sleepsNext();
        if (armed) {
            doorbell.arm();
        }
        int work = doWork();
        if (armed && (work > 0 || !running || idle != before)) {
            doorbell.disarm(); // no sleep follows (a sleep without arming returns at once)
        }
        if (running) {
            idle.idle(work);
        }
    }

    /** One duty cycle: adopt a new generation or task, poll every owned queue once, sweep; returns packets. */
    public int doWork() {
        epoch++;
        Generation g = source.get();
        if (g != generation) {
            adoptGeneration(g);
            adoptedGeneration = g.number();
        }
        mailbox.runPending(this);
        counters.values()[ITERATIONS]++;
        long nowNanos = clock.nanoTime();
        int nowMillis = (int) (nowNanos / 1_000_000);
        int work = 0;
        pipeline.cycleStarts(nowNanos);
        for (int i = 0; i < queueCount; i++) {
            work += pipeline.poll(queues[i], g, nowMillis);
        }
        int owedMillis = (int) Math.clamp(nowMillis - sweptAtMillis, 0, MAX_SWEEP_BUDGET / SWEEP_BUDGET);
        sweptAtMillis = nowMillis;
        int budget = Math.max(SWEEP_BUDGET, owedMillis * SWEEP_BUDGET);
        fastPath.sweep(g, nowMillis, budget);
        flowMeter.sweep(nowMillis, budget);
        g.tables().connections().sweep(nowMillis, owedMillis * CONNECTION_SWEEP_BUDGET, g.tables().rules(),
                packetLog);
        topFlows.step(g.fastPath() ? fastPath.cache() : null, actions, g.number(), nowMillis, nowNanos);
        return work;
    }

    private void adoptGeneration(Generation g) {
        flowMeter.adopt(g.ipfix());
        if (generation != null && generation.fastPath() != g.fastPath()) {
            flowMeter.flush(FlowEndReason.FORCED_END); // a mode switch: what each mode counted goes out now
        }
        fastPath.adopt(generation, g);
        ruleCounters.adopt(g.tables().rules()); // adds its pending run first: it names an action of the table
        // cached entries of the old generation are revalidated before use, so their action indices are dead
        actions.clear();
        idle = g.busyPoll() ? busySpin : backoff;
        generation = g;
    }
}
