package io.edp.bench;

import io.edp.engine.Engine;
import io.edp.engine.EngineStats;
import io.edp.engine.Mode;
import io.edp.engine.nic.Doorbell;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.worker.Worker;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One round of one {@link EngineCase}, in the JVM {@code bench engine} forked for it: starts the engine and the
 * loopback traffic generator (its own thread: it builds each frame and copies it into a buffer the worker
 * posted, as a NIC's DMA would), warms up until every flow is installed and tracked, then measures one window.
 * A case that {@link EngineCase#measuresIdle() measures idling} then stops the traffic and measures what the idle
 * worker costs and how fast single frames wake it.
 */
final class EngineCaseRun {

    private static final long WARM_UP_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long LOAD_SAMPLE_MILLIS = 50;
    private static final long SETTLE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final int WAKE_PROBES = 100;
    /** Probe frames 5 ms apart: between two, a sleeping worker's backoff reaches sleeps of milliseconds. */
    static final long WAKE_PROBE_RATE = 200;

    /**
     * What one window measured. CPU figures are per packet received: {@code workerNsPerPacket} charges the worker
     * thread only, idle polling included; {@code pipelineNsPerPacket} adds the generator thread (building the
     * frames and the NIC model's copy of each into its buffer, and its spinning while no buffer is posted).
     * {@code copyGbps} is the frame bytes the NIC model copied into buffers per wall second. {@code runnableTasks}
     * is the mean number of tasks runnable on the machine through the window, this sampler excluded; the bench's
     * own threads account for at most {@link EngineBenchmark#BENCH_THREADS} of them.
     */
    record Measurement(String mode, int descriptorBytes, int frameBytes, int flows, boolean onePair,
            double windowSeconds, long packets, double mpps, double workerNsPerPacket, double pipelineNsPerPacket,
            double workerPacketsPerCoreSecond, double copyGbps, double hitRate, double allocBytesPerPacket,
            double busyNsPerPacket, double packetsPerPoll, double runnableTasks, double loadAverage, Idle idle) {
    }

    /**
     * The worker after the traffic stopped: {@code corePercent}, its thread's CPU time over a window in which it
     * idled (for a worker that sleeps, once it reached its longest sleep), in % of a core; {@code wake} null when
     * it never sleeps (EDP_DEDICATED).
     */
    record Idle(double windowSeconds, double corePercent, Wake wake) {
    }

    /**
     * Single frames put on the wire {@value #WAKE_PROBE_RATE} a second while the worker sleeps between them: the
     * time from the doorbell's ring (the frame on the RX ring) to the worker running again, p50 and p99 in µs.
     */
    record Wake(int samples, double p50Micros, double p99Micros) {
    }

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    Measurement measure(EngineCase c, long warmUpMillis, long windowMillis) {
        try (Engine engine = Engine.start(c.config())) {
            TrafficGenerator generator = ((LoopbackNic) engine.driver(0)).startTraffic(c.traffic());
            long start = System.nanoTime();
            while (engine.stats().rxPackets() < c.warmUpPackets()
                    || System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(warmUpMillis)) {
                if (System.nanoTime() - start > WARM_UP_LIMIT_NANOS) {
                    throw new IllegalStateException("warm-up: " + engine.stats().rxPackets() + " of "
                            + c.warmUpPackets() + " packets received in 60 s");
                }
                pause(LOAD_SAMPLE_MILLIS);
            }
            long[] workers = engine.workerThreadIds();
            long[] pipeline = {workers[0], generator.threadId()};
            EngineStats before = engine.stats();
            long workerCpu0 = cpu(workers);
            long pipelineCpu0 = cpu(pipeline);
            long alloc0 = allocated(workers);
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
                    (double) packets / polls, (double) runnable / samples, MachineLoad.read().oneMinute(), idle);
        }
    }

    private Idle measureIdle(Engine engine, EngineCase c, long windowMillis) {
        Doorbell doorbell = engine.doorbell(0);
        boolean sleeps = c.mode() != Mode.EDP_DEDICATED;
        long settled = System.nanoTime();
        while (sleeps ? doorbell.sleepNanos() != Worker.MAX_SLEEP.toNanos() : System.nanoTime() - settled < 200_000_000L) {
            if (System.nanoTime() - settled > SETTLE_LIMIT_NANOS) {
                throw new IllegalStateException("the idle worker did not reach its longest sleep in 10 s");
            }
            pause(1);
        }
        long[] worker = {engine.workerThreadIds()[0]};
        long cpu0 = cpu(worker);
        long wall0 = System.nanoTime();
        pause(windowMillis);
        long wall = System.nanoTime() - wall0;
        double corePercent = 100.0 * (cpu(worker) - cpu0) / wall;
        return new Idle(wall / 1e9, corePercent, sleeps ? measureWake(engine, c, doorbell) : null);
    }

    /** Sends the probes and records the wake-up latency of each sleep a ring ended. */
    private static Wake measureWake(Engine engine, EngineCase c, Doorbell doorbell) {
        TrafficGenerator probes = ((LoopbackNic) engine.driver(0))
                .startTraffic(c.traffic().withFlows(1).withRate(WAKE_PROBE_RATE).withPackets(WAKE_PROBES));
        long[] latencies = new long[WAKE_PROBES];
        int n = 0;
        long wakeups = doorbell.wakeups();
        long start = System.nanoTime();
        while (n < WAKE_PROBES && !(probes.finished() && doorbell.wakeups() == wakeups)) {
            if (System.nanoTime() - start > SETTLE_LIMIT_NANOS) {
                throw new IllegalStateException("wake-up probes: " + probes.sent() + " sent in 10 s");
            }
            long w = doorbell.wakeups();
            if (w != wakeups) {
                wakeups = w;
                latencies[n++] = doorbell.wakeLatencyNanos();
            }
            pause(1);
        }
        probes.stop();
        if (n == 0) {
            throw new IllegalStateException("no probe frame found the worker asleep");
        }
        long[] measured = Arrays.copyOf(latencies, n);
        Arrays.sort(measured);
        return new Wake(n, measured[(n - 1) / 2] / 1e3, measured[(int) Math.ceil(0.99 * n) - 1] / 1e3);
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

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
