package io.edp.bench;

import io.edp.engine.Engine;
import io.edp.engine.EngineStats;
import io.edp.engine.Mode;
import io.edp.engine.nic.Doorbell;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.numa.CpuSet;
import io.edp.engine.numa.NumaTopology;
import io.edp.engine.numa.WorkerPinning;
import io.edp.engine.worker.Worker;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One round of one {@link EngineCase}, in the JVM {@code bench engine} forked for it: starts the engine and the
 * loopback traffic generator (its own thread: it builds each frame and copies it into a buffer the worker
 * posted, as a NIC's DMA would), warms up until every flow is installed and tracked and the JIT has stopped
 * compiling, then measures one window.
 * A case that {@link EngineCase#measuresIdle() measures idling} then stops the traffic and measures what the idle
 * worker costs and how fast single frames wake it.
 */
final class EngineCaseRun {

    private static final long WARM_UP_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long LOAD_SAMPLE_MILLIS = 50;
    private static final long SETTLE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    /**
     * The JIT compiled nothing for this long: the worker runs its final code. Under load the compiler threads
     * share the CPUs with the case, and the worker loop's last C2 compiles (and recompiles after uncommon traps)
     * were seen landing seconds after the packet warm-up ended, inside the window.
     */
    private static final long JIT_QUIET_MILLIS = 500;
    private static final long JIT_QUIET_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final int WAKE_PROBES = 100;
    /** A probe goes out once the worker sleeps this long: without a doorbell it would wait ~half of it. */
    static final long PROBE_SLEEP_NANOS = 1_000_000;

    /**
     * What one window measured. CPU figures are per packet received: {@code workerNsPerPacket} charges the worker
     * thread only, idle polling included; {@code pipelineNsPerPacket} adds the generator thread (building the
     * frames and the NIC model's copy of each into its buffer, and its spinning while no buffer is posted).
     * {@code copyGbps} is the frame bytes the NIC model copied into buffers per wall second. {@code runnableTasks}
     * is the mean number of tasks runnable on the machine through the window, this sampler excluded; the bench's
     * own threads account for at most {@link EngineBenchmark#BENCH_THREADS} of them. {@code jitTraps} is the JIT's
     * uncommon traps in the window, -1 where they were not logged ({@link JitTrapLog}). {@code coreRoundTripNs} is
     * a cache line's round trip between the worker's and the generator's CPUs, measured before the engine starts,
     * once the JIT is quiet ({@link CoreRoundTrip}), -1 where the two are not pinned apart.
     */
    record Measurement(String mode, int descriptorBytes, int frameBytes, int flows, boolean onePair,
            double windowSeconds, long packets, double mpps, double workerNsPerPacket, double pipelineNsPerPacket,
            double workerPacketsPerCoreSecond, double copyGbps, double hitRate, double allocBytesPerPacket,
            double busyNsPerPacket, double packetsPerPoll, double runnableTasks, double loadAverage, long jitTraps,
            double coreRoundTripNs, Idle idle, String workerCpus, String generatorCpus) {
    }

    /**
     * Where the case's two threads run: the worker on {@code worker}'s CPUs and the traffic generator on
     * {@code generator}'s, or, where a set is empty, wherever the scheduler puts that thread. On separate CPUs
     * the two never take turns on one, and the frames always cross from the generator's core to the worker's
     * (as a NIC's DMA writes outside the worker's core); floating, each round measured whichever the scheduler
     * chose, and one build's rounds ranged twice as wide (docs/benchmarks.md).
     */
    record Placement(CpuSet worker, CpuSet generator) {
        static final Placement FLOATING = new Placement(CpuSet.of(), CpuSet.of());
    }

    /**
     * The worker after the traffic stopped: {@code corePercent}, its thread's CPU time over a window in which it
     * idled (for a worker that sleeps, once it reached its longest sleep), in % of a core; {@code wake} null when
     * it never sleeps (EDP_DEDICATED).
     */
    record Idle(double windowSeconds, double corePercent, Wake wake) {
    }

    /**
     * Single frames, each put on the wire once the worker sleeps ≥ 1 ms: the time from the doorbell's ring (the
     * frame on the RX ring) to the worker running again, p50 and p99 in µs, of the sleeps a probe cut short.
     */
    record Wake(int samples, double p50Micros, double p99Micros) {
    }

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** One window of {@code c}; {@code trapLog} is where this JVM logs its JIT traps, null when it does not. */
    Measurement measure(EngineCase c, long warmUpMillis, long windowMillis, Placement placement,
            JitTrapLog trapLog) {
        awaitJitQuiet(); // the JVM's start-up compiling, on the same CPUs, would lengthen the trips
        double roundTrip = CoreRoundTrip.nanos(placement.worker(), placement.generator());
        try (Engine engine = Engine.start(c.config())) {
            String workerCpus = placement.worker().isEmpty() ? "" : engine.pinWorkers(new WorkerPinning(true,
                    new NumaTopology(new TreeMap<>(Map.of(0, placement.worker()))))).values().stream()
                    .map(CpuSet::toString).collect(Collectors.joining(" "));
            TrafficGenerator generator = ((LoopbackNic) engine.driver(0)).startTraffic(c.traffic(),
                    placement.generator());
            long start = System.nanoTime();
            while (engine.stats().rxPackets() < c.warmUpPackets()
                    || System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(warmUpMillis)) {
                if (System.nanoTime() - start > WARM_UP_LIMIT_NANOS) {
                    throw new IllegalStateException("warm-up: " + engine.stats().rxPackets() + " of "
                            + c.warmUpPackets() + " packets received in 60 s");
                }
                pause(LOAD_SAMPLE_MILLIS);
            }
            awaitJitQuiet();
            long[] workers = engine.workerThreadIds();
            long[] pipeline = {workers[0], generator.threadId()};
            EngineStats before = engine.stats();
            long workerCpu0 = cpu(workers);
            long pipelineCpu0 = cpu(pipeline);
            long alloc0 = allocated(workers);
            long traps0 = trapLog == null ? 0 : trapLog.traps();
            long wall0 = System.nanoTime();
            long runnable = 0;
            int samples = 0;
            long windowNanos = TimeUnit.MILLISECONDS.toNanos(windowMillis);
            while (System.nanoTime() - wall0 < windowNanos) {
                pause(Math.min(LOAD_SAMPLE_MILLIS, TimeUnit.NANOSECONDS.toMillis(windowNanos
                        - (System.nanoTime() - wall0)) + 1));
                runnable += MachineLoad.read().runnable() - 1; // the sampler is running while it reads
                samples++;
            }
            long wall = System.nanoTime() - wall0;
            long workerCpu = cpu(workers) - workerCpu0;
            long pipelineCpu = cpu(pipeline) - pipelineCpu0;
            long alloc = allocated(workers) - alloc0;
            EngineStats after = engine.stats();
            long traps = trapLog == null ? -1 : trapLog.traps() - traps0;
            generator.stop();
            Idle idle = c.measuresIdle() ? measureIdle(engine, c, windowMillis) : null;
            long packets = after.rxPackets() - before.rxPackets();
            if (packets <= 0) {
                throw new IllegalStateException("the worker received no packet in the window");
            }
            long hits = after.flowCache().hits() - before.flowCache().hits();
            long slow = after.flowCache().slowPath() - before.flowCache().slowPath();
            EngineStats.WorkerStats w0 = before.workers().getFirst();
            EngineStats.WorkerStats w1 = after.workers().getFirst();
            long polls = Math.max(1, w1.iterations() - w0.iterations());
            return new Measurement(c.mode().name(), engine.config().mbufDescriptorBytes(), c.frameBytes(),
                    c.flows(), c.onePair(), wall / 1e9, packets, packets * 1e3 / wall,
                    (double) workerCpu / packets, (double) pipelineCpu / packets, packets * 1e9 / workerCpu,
                    (w1.rxBytes() - w0.rxBytes()) * 8.0 / wall, hits + slow == 0 ? 0 : (double) hits / (hits + slow),
                    (double) alloc / packets, (double) (w1.busyNanos() - w0.busyNanos()) / packets,
                    (double) packets / polls, (double) runnable / samples, MachineLoad.read().oneMinute(), traps,
                    roundTrip, idle, workerCpus, placement.generator().toString());
        }
    }

    private Idle measureIdle(Engine engine, EngineCase c, long windowMillis) {
        Doorbell doorbell = engine.doorbell(0);
        boolean sleeps = c.mode() != Mode.EDP_DEDICATED;
        long settled = System.nanoTime();
        if (sleeps) {
            awaitSleep(doorbell, Worker.MAX_SLEEP.toNanos(), settled);
            // the last duty the traffic left: a top-flows pass over the counts it ended with
            Instant asleep = Instant.now();
            while (engine.topFlows().takenAt() == null || !engine.topFlows().takenAt().isAfter(asleep)) {
                requireWithinLimit(settled, "a top-flows snapshot after the traffic");
                pause(LOAD_SAMPLE_MILLIS);
            }
            awaitSleep(doorbell, Worker.MAX_SLEEP.toNanos(), settled);
        } else {
            pause(200); // a busy-polling worker has nothing to settle into
        }
        long[] worker = {engine.workerThreadIds()[0]};
        long cpu0 = cpu(worker);
        long wall0 = System.nanoTime();
        pause(windowMillis);
        long wall = System.nanoTime() - wall0;
        double corePercent = 100.0 * (cpu(worker) - cpu0) / wall;
        return new Idle(wall / 1e9, corePercent, sleeps ? measureWake(engine, c, doorbell) : null);
    }

    /**
     * Puts one frame on the wire at a time, each once the worker sleeps at least {@link #PROBE_SLEEP_NANOS}, and
     * records the wake-up latency of each sleep a probe cut short.
     */
    private static Wake measureWake(Engine engine, EngineCase c, Doorbell doorbell) {
        LoopbackNic nic = (LoopbackNic) engine.driver(0);
        long[] latencies = new long[WAKE_PROBES];
        int n = 0;
        for (int probe = 0; probe < WAKE_PROBES; probe++) {
            long start = System.nanoTime();
            awaitSleep(doorbell, PROBE_SLEEP_NANOS, start);
            long wakeups = doorbell.wakeups();
            TrafficGenerator one = nic.startTraffic(c.traffic().withFlows(1).withPackets(1));
            while (!one.finished() || doorbell.wakeups() == wakeups && doorbell.sleepNanos() != 0) {
                requireWithinLimit(start, "wake-up probe " + probe);
                Thread.yield();
            }
            one.stop();
            if (doorbell.wakeups() != wakeups) {
                latencies[n++] = doorbell.wakeLatencyNanos();
            }
        }
        if (n == 0) {
            throw new IllegalStateException("no probe frame found the worker asleep");
        }
        long[] measured = Arrays.copyOf(latencies, n);
        Arrays.sort(measured);
        return new Wake(n, measured[(n - 1) / 2] / 1e3, measured[(int) Math.ceil(0.99 * n) - 1] / 1e3);
    }

    private static void awaitSleep(Doorbell doorbell, long atLeastNanos, long since) {
        while (doorbell.sleepNanos() < atLeastNanos) {
            requireWithinLimit(since, "the idle worker's sleep");
            Thread.yield();
        }
    }

    private static void requireWithinLimit(long since, String what) {
        if (System.nanoTime() - since > SETTLE_LIMIT_NANOS) {
            throw new IllegalStateException(what + ": not within 10 s");
        }
    }

    private long cpu(long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += threads.getThreadCpuTime(id);
        }
        return sum;
    }

    private long allocated(long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += threads.getThreadAllocatedBytes(id);
        }
        return sum;
    }

    /**
     * Waits until the JIT compiled nothing for {@link #JIT_QUIET_MILLIS}, at most {@link #JIT_QUIET_LIMIT_NANOS}
     * (then the window opens anyway: a case must not hang on a compiler that never rests).
     */
    private static void awaitJitQuiet() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long start = System.nanoTime();
        long compiled = jit.getTotalCompilationTime();
        long quietSince = start;
        while (System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(JIT_QUIET_MILLIS)
                && System.nanoTime() - start < JIT_QUIET_LIMIT_NANOS) {
            pause(LOAD_SAMPLE_MILLIS);
            long now = jit.getTotalCompilationTime();
            if (now != compiled) {
                compiled = now;
                quietSince = System.nanoTime();
            }
        }
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
