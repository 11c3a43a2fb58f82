package io.edp.engine.worker;

import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.metrics.Counters;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.FrameParser;
import io.edp.engine.packet.FrameRewriter;
import io.edp.engine.reject.RejectReplies;
import io.edp.engine.slowpath.Action;
import io.edp.engine.slowpath.ActionTable;
import io.edp.engine.slowpath.FragmentTable;
import io.edp.engine.slowpath.IoChain;
import io.edp.engine.time.Clock;
import io.edp.engine.verifier.FlowVerifier;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A data-path worker (the seed's EnsNetWorld thread) as an Agrona-style duty cycle: {@link #doWork()} polls each
 * owned RX queue for a burst of up to 32 frames and runs them through the pipeline
 * <pre>
 *   rx burst → parse → flow-cache lookup (fast path) → miss path (IOChain) → install → rewrite → tx burst
 * </pre>
 * (each step over the whole burst before the next, see {@code processBurst}), then sweeps a bounded slice of its
 * flow cache. Everything it touches per packet is its own (flow cache, action table, counters, mbuf cache) except
 * the shared connection table on the slow path. Configuration arrives as a
 * {@link Generation}, queue ownership and control requests as tasks run between bursts.
 * <p>
 * A worker cannot wedge its engine: its duty cycle catches every {@link Throwable} ({@link WorkerFaults} counts,
 * logs and survives all but a {@link VirtualMachineError}), frees what a failed burst held, and every wait of the
 * control side on it has a deadline ({@link #RESPONSE_DEADLINE}). {@link #health} tells a worker whose thread died
 * from one that stalled (began no iteration for {@link #STALL_THRESHOLD}; an idle worker parks at most 1 ms at a
 * time, so a healthy one begins hundreds of iterations a second).
 */
public final class Worker implements Runnable {

    public static final int MAX_PORTS = 1024;

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

    private static final String ENGINE_PACKAGE = "io.edp.engine.";
    private static final int SWEEP_BUDGET = 16;
    private static final int ACTION_TABLE_CAPACITY = FlowCache.MAX_ACTIONS;
    private static final int SLOW_PATH_TCP_FLAGS = FlowKey.TCP_SYN | FlowKey.TCP_FIN | FlowKey.TCP_RST;

    private final int id;
    private final int numaNode;
    private final Clock clock;
    private final Supplier<Generation> source;
    private final MbufCache mbufs;
    private final Mbuf mbuf;
    private final RejectReplies rejectReplies;
    private final FrameParser parser = new FrameParser();
    private final IoChain ioChain = new IoChain(new ActionTable(ACTION_TABLE_CAPACITY));
    private final Counters counters = new Counters(COUNTER_COUNT);
    private final Counters flowCacheCounters = new Counters(FlowCache.COUNTER_COUNT);
    private final Counters drops = new Counters(DropReason.count());
    private final Counters portCounters = new Counters(MAX_PORTS * 2);
    private final BusySpinIdleStrategy busySpin = new BusySpinIdleStrategy();
    private final BackoffIdleStrategy backoff = BackoffIdleStrategy.standard();
    private final WorkerFaults faults;
    private final FlowVerifier verifier;
    private final long seed;
    private final long startedNanos;

    private final int[] burst = new int[NicDriver.MAX_BURST];
    private final int[] parsed = new int[NicDriver.MAX_BURST];
    private final int[] staged = new int[NicDriver.MAX_BURST];
    private final int[] stagedPort = new int[NicDriver.MAX_BURST];
    private final int[] txBurst = new int[NicDriver.MAX_BURST];
    private RxQueue[] queues = new RxQueue[0];
    private int queueCount;
    private Generation generation;
    private FlowCache flowCache;
    private IdleStrategy idle = backoff;
    /** Buffers the burst still owns (neither freed nor staged): {@code held[heldFrom, heldCount)}. */
    private int[] held = burst;
    private int heldFrom;
    private int heldCount;
    private int stagedCount;
    /** Sum of warmed words: keeps the loads of stage 0 from being optimized away. */
    private long warmed;
    /** Test seam ({@link #injectFault}): thrown by the next burst's pipeline. */
    private Error injectedFault;

    private volatile long epoch;
    private volatile int adoptedGeneration;
    private volatile Throwable death;
    private final AtomicReference<Task> pending = new AtomicReference<>();
    /** The last epoch the control side saw and when it first saw it (System.nanoTime): the stall watch. */
    private final AtomicReference<Sighting> sighting = new AtomicReference<>(new Sighting(-1, 0));
    private volatile boolean running;
    private volatile Thread thread;

    private static final class Task {
        final Consumer<Worker> body;
        volatile boolean done;
        Throwable failure;

        Task(Consumer<Worker> body) {
            this.body = body;
        }
    }

    private record Sighting(long epoch, long atNanos) {
    }

    public Worker(int id, int numaNode, Clock clock, MbufPool pool, Supplier<Generation> source) {
        this.id = id;
        this.numaNode = numaNode;
        this.clock = clock;
        this.source = source;
        this.mbufs = new MbufCache(pool);
        this.mbuf = new Mbuf(pool);
        this.faults = new WorkerFaults(id, counters.values(), EXCEPTIONS);
        this.rejectReplies = new RejectReplies(pool);
        this.verifier = new FlowVerifier(id);
        this.seed = 0x9E3779B97F4A7C15L * (id + 1);
        this.startedNanos = clock.nanoTime();
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

    /** Heap a worker holds besides its flow cache: its action table and per-port counters. */
    public static long fixedBytes() {
        return ActionTable.bytes(ACTION_TABLE_CAPACITY) + FragmentTable.BYTES + (long) MAX_PORTS * 2 * Long.BYTES;
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
        return flowCache;
    }

    public ActionTable actions() {
        return ioChain.actions();
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
            return true;
        }
        LockSupport.unpark(t);
        try {
            return t.join(RESPONSE_DEADLINE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Ends any park so the next iteration starts now (a publish wants its grace period). */
    public void wake() {
        if (thread != null) {
            LockSupport.unpark(thread);
        }
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
        Task task = new Task(body);
        pending.set(task);
        long deadline = System.nanoTime() + RESPONSE_DEADLINE.toNanos();
        while (!task.done) {
            if (!t.isAlive() || System.nanoTime() - deadline > 0) {
                boolean withdrawn = pending.compareAndSet(task, null);
                WorkerHealth health = health(System.nanoTime(), 0);
                throw new IllegalStateException(health.state() == WorkerHealth.State.DEAD ? health.reason()
                        : "worker " + id + (withdrawn ? " did not take" : " did not finish") + " a control task within "
                        + RESPONSE_DEADLINE.toSeconds() + " s" + (health.isRunning() ? "" : " (" + health.reason() + ")"));
            }
            LockSupport.unpark(t);
            LockSupport.parkNanos(20_000);
        }
        if (task.failure instanceof RuntimeException e) {
            throw e;
        }
        if (task.failure instanceof Error e) {
            throw e;
        }
    }

    /**
     * Test seam: the pipeline of the next burst this worker takes throws {@code fault} while it holds the burst's
     * frames, as a bug on the packet path would. An {@link InternalError} (a {@link VirtualMachineError}) kills the
     * worker; other errors are counted and survived.
     */
    public void injectFault(Error fault) {
        execute(w -> w.injectedFault = fault);
    }

    /** Starts polling {@code queue}; worker thread (through {@link #execute}) or before {@link #start()}. */
    public void adopt(RxQueue queue) {
        queues = Arrays.copyOf(queues, queueCount + 1);
        queues[queueCount++] = queue;
        queue.owner(id);
    }

    /** Stops polling {@code queue}; worker thread (through {@link #execute}). */
    public void release(RxQueue queue) {
        for (int i = 0; i < queueCount; i++) {
            if (queues[i] == queue) {
                queues[i] = queues[--queueCount];
                queues[queueCount] = null;
                return;
            }
        }
    }

    /** Empties the flow cache; worker thread (through {@link #execute}). */
    public void flushFlowCache() {
        if (flowCache != null) {
            flowCache.flush();
        }
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
                    idle.idle(doWork());
                } catch (Throwable t) {
                    faults.caught(t);
                }
            }
        } catch (Throwable t) {
            death = t;
            throw t; // a process-wide uncaught-exception handler sees it too
        } finally {
            mbufs.flush();
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
        Task task = pending.get();
        if (task != null && pending.compareAndSet(task, null)) {
            runTask(task);
        }
        counters.values()[ITERATIONS]++;
        int nowMillis = (int) (clock.nanoTime() / 1_000_000);
        int work = 0;
        for (int i = 0; i < queueCount; i++) {
            work += poll(queues[i], g, nowMillis);
        }
        if (flowCache != null && g.fastPath()) {
            flowCache.sweep(nowMillis, SWEEP_BUDGET);
        }
        return work;
    }

    /** Runs a claimed task; what it throws goes to the thread that asked for it. */
    private void runTask(Task task) {
        try {
            task.body.accept(this);
        } catch (Throwable t) {
            task.failure = t;
        }
        task.done = true;
    }

    private void adoptGeneration(Generation g) {
        if (g.fastPath() && (flowCache == null || flowCache.capacity() != g.flowCacheCapacity()
                || generation == null || generation.minExpiryMillis() != g.minExpiryMillis()
                || generation.maxExpiryMillis() != g.maxExpiryMillis())) {
            flowCacheCounters.values()[FlowCache.ENTRIES] = 0;
            flowCache = new FlowCache(g.flowCacheCapacity(), g.minExpiryMillis(), g.maxExpiryMillis(), seed,
                    flowCacheCounters.values());
        } else if (flowCache != null && generation != null && (g.number() >>> 16) != (generation.number() >>> 16)) {
            flowCache.flush(); // the cache keeps 16 generation bits: never let an old entry look current
        }
        // cached entries of the old generation are revalidated before use, so their action indices are dead
        ioChain.actions().clear();
        idle = g.busyPoll() ? busySpin : backoff;
        generation = g;
    }

    private int poll(RxQueue queue, Generation g, int nowMillis) {
        long start = clock.nanoTime();
        int n = queue.driver().rxBurst(queue.queue(), mbufs, burst, NicDriver.MAX_BURST);
        if (n == 0) {
            return 0;
        }
        long bytes = 0;
        try {
            bytes = processBurst(n, g, nowMillis);
        } catch (Throwable t) {
            recoverBurst();
            throw t; // counted and logged by the duty cycle
        } finally {
            long busy = clock.nanoTime() - start;
            long[] q = queue.counters().values();
            q[RxQueue.PACKETS] += n;
            q[RxQueue.BYTES] += bytes;
            q[RxQueue.BUSY_NANOS] += busy;
            long[] c = counters.values();
            c[RX_PACKETS] += n;
            c[RX_BYTES] += bytes;
            c[BUSY_NANOS] += busy;
        }
        return n;
    }

    /**
     * The pipeline for one burst, stage by stage over the whole burst (as VPP and OVS do) so that the memory
     * misses of different packets overlap: touch all frames, parse all, warm their flow-cache entries, then
     * decide, rewrite and stage each in arrival order, then transmit. Returns the bytes received.
     */
    private long processBurst(int n, Generation g, int nowMillis) {
        long bytes = 0;
        stagedCount = 0;
        long[] dropped = drops.values();
        // stage 0: touch every frame's first line, so the misses on buffers filled by another core overlap
        for (int i = 0; i < n; i++) {
            Mbuf m = mbuf.wrap(burst[i]);
            warmed += m.data().get(ValueLayout.JAVA_LONG_UNALIGNED, m.dataAddress());
        }
        // stage 1: parse; malformed frames are counted and freed
        held = burst;
        heldCount = n;
        int parsedCount = 0;
        for (int i = 0; i < n; i++) {
            heldFrom = i;
            Mbuf m = mbuf.wrap(burst[i]);
            bytes += m.dataLength();
            int parsed = parser.parse(m);
            if (parsed != FrameParser.PARSED) {
                dropped[parsed]++;
                mbufs.free(burst[i]);
            } else {
                this.parsed[parsedCount++] = burst[i];
            }
        }
        held = this.parsed;
        heldFrom = 0;
        heldCount = parsedCount;
        if (injectedFault != null) {
            throwInjectedFault();
        }
        // stage 2: touch each packet's flow-cache entry now, so the misses run in parallel
        if (g.fastPath()) {
            for (int i = 0; i < parsedCount; i++) {
                flowCache.warm(mbuf.wrap(this.parsed[i]).flowHash());
            }
        }
        // stage 3: fast path or IOChain, rewrite, stage for transmit
        for (int i = 0; i < parsedCount; i++) {
            heldFrom = i;
            int index = this.parsed[i];
            Mbuf m = mbuf.wrap(index);
            int actionIndex = g.fastPath() ? fastPath(m, g, nowMillis) : slowPath(m, g, nowMillis);
            if (actionIndex < 0) {
                dropped[DropReason.ACTION_TABLE_FULL.ordinal()]++;
                mbufs.free(index);
                continue;
            }
            Action action = ioChain.actions().get(actionIndex);
            int verdict = FrameRewriter.apply(m, action);
            if (verdict != FrameRewriter.FORWARD) {
                dropped[verdict]++;
                if (verdict == DropReason.FIREWALL_REJECT.ordinal()) {
                    stageRejectReply(m, nowMillis);
                }
                mbufs.free(index);
                continue;
            }
            staged[stagedCount] = index;
            stagedPort[stagedCount++] = action.outPort();
        }
        heldFrom = heldCount;
        // stage 4: one tx burst per output port
        transmit(g);
        return bytes;
    }

    /** A rejected packet's reply (if one is due) leaves out of its ingress port, in the packet's place. */
    private void stageRejectReply(Mbuf m, int nowMillis) {
        int reply = rejectReplies.reply(m, mbufs, nowMillis);
        if (reply >= 0) {
            staged[stagedCount] = reply;
            stagedPort[stagedCount++] = m.port();
        }
    }

    private int fastPath(Mbuf m, Generation g, int nowMillis) {
        MemorySegment d = m.descriptors();
        long key = m.flowKeyAddress();
        FlowCache cache = flowCache;
        if ((FlowKey.flags(d, key) & FlowKey.FLAG_SLOW_PATH_ONLY) != 0
                || (FlowKey.tcpFlags(d, key) & SLOW_PATH_TCP_FLAGS) != 0
                || g.tables().isSlowPathOnly(m.port())) {
            flowCacheCounters.values()[FlowCache.SLOW_PATH]++;
            return slowPath(m, g, nowMillis);
        }
        int hash = m.flowHash();
        int slot = cache.lookup(d, key, hash, g.number(), nowMillis);
        if (slot >= 0) {
            cache.count(slot, m.dataLength());
            int connection = cache.touch(slot, nowMillis);
            if (connection != FlowCache.NO_CONNECTION) {
                g.tables().connections().touch(connection, nowMillis); // the hit keeps its connection alive
            }
            int actionIndex = cache.actionIndex(slot);
            verifier.onHit(m, g, nowMillis, ioChain, ioChain.actions().get(actionIndex));
            return actionIndex;
        }
        flowCacheCounters.values()[FlowCache.SLOW_PATH]++;
        int actionIndex = slowPath(m, g, nowMillis);
        if (actionIndex >= 0 && ioChain.actions().get(actionIndex).cacheable()) {
            slot = cache.install(d, key, hash, actionIndex, g.number(), nowMillis, (int) m.connection());
            if (slot >= 0) {
                cache.count(slot, m.dataLength());
            }
        } else if (slot == FlowCache.STALE) {
            cache.forget(d, key, hash);
        }
        return actionIndex;
    }

    private int slowPath(Mbuf m, Generation g, int nowMillis) {
        counters.values()[IOCHAIN_PACKETS]++;
        int actionIndex = ioChain.process(m, g.tables(), nowMillis);
        if (actionIndex < 0) {
            // the table is full: start over, dropping the cache entries that point into it
            ioChain.actions().clear();
            if (flowCache != null) {
                flowCache.flush();
            }
            actionIndex = ioChain.process(m, g.tables(), nowMillis);
        }
        return actionIndex;
    }

    /** Sends the staged frames, one tx burst per output port, keeping their order within each port. */
    private void transmit(Generation g) {
        long[] ports = portCounters.values();
        long[] c = counters.values();
        int remaining = stagedCount;
        while (remaining > 0) {
            int port = -1;
            int count = 0;
            int kept = 0;
            for (int i = 0; i < remaining; i++) {
                if (port < 0) {
                    port = stagedPort[i];
                }
                if (stagedPort[i] == port) {
                    txBurst[count++] = staged[i];
                } else {
                    staged[kept] = staged[i];
                    stagedPort[kept++] = stagedPort[i];
                }
            }
            remaining = kept;
            stagedCount = kept;
            TxPort tx = g.txPort(port);
            if (tx == null) {
                drops.values()[DropReason.PORT_DOWN.ordinal()] += count;
                mbufs.freeBurst(txBurst, count);
                continue;
            }
            long bytes = 0;
            for (int i = 0; i < count; i++) {
                bytes += mbuf.wrap(txBurst[i]).dataLength();
            }
            int sent = tx.send(id, mbufs, txBurst, count);
            ports[port * 2] += sent;
            ports[port * 2 + 1] += sent == count ? bytes : bytes * sent / count;
            c[TX_PACKETS] += sent;
            c[TX_BYTES] += sent == count ? bytes : bytes * sent / count;
            drops.values()[DropReason.TX_QUEUE_FULL.ordinal()] += count - sent;
        }
    }

    private void throwInjectedFault() {
        Error fault = injectedFault;
        injectedFault = null;
        throw fault;
    }

    /** After an unexpected Throwable: drop what the burst still held, so no buffer leaks. */
    private void recoverBurst() {
        long[] dropped = drops.values();
        for (int i = heldFrom; i < heldCount; i++) {
            mbufs.free(held[i]);
            dropped[DropReason.WORKER_EXCEPTION.ordinal()]++;
        }
        for (int i = 0; i < stagedCount; i++) {
            mbufs.free(staged[i]);
            dropped[DropReason.WORKER_EXCEPTION.ordinal()]++;
        }
        stagedCount = 0;
        heldFrom = heldCount;
    }
}
