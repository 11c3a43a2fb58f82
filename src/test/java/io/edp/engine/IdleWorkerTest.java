package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import io.edp.engine.nic.Doorbell;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.slowpath.Route;
import io.edp.engine.time.SystemClock;
import io.edp.engine.worker.Worker;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;

/**
 * An idle EDP_STANDARD worker gives its core back: it sleeps on its doorbell up to {@link Worker#MAX_SLEEP}, and
 * the loopback NIC (frames) or the control side (a push) ends the sleep at once; EDP_DEDICATED never sleeps.
 */
class IdleWorkerTest {

    private static final System.Logger LOG = System.getLogger(IdleWorkerTest.class.getName());
    private static final long LONG_SLEEP = Worker.MAX_SLEEP.toNanos();
    private static final Duration SETTLE = Duration.ofSeconds(20);
    /** A window is this many iterations of the idle worker: about 2 s at its longest sleep. */
    private static final int WINDOW_ITERATIONS = 4;
    /** How often the test thread looks whether a window is over, parked in between. */
    private static final long LOOK_NANOS = 10_000_000;

    @Test
    void anIdleStandardWorkerWakesAFewTimesASecondAndCostsAlmostNoCpu() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build());
                CpuSamples samples = new CpuSamples(engine.workerThreadIds()[0])) {
            IdleWorkers.awaitIdle(engine);
            ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
            long id = engine.workerThreadIds()[0];
            // up to three windows: full suite runs have measured windows of 0.4-2.9 % of a core (7-15 ms of CPU per
            // iteration, without wake-ups or collections) where the test alone measures 0.02-0.06 %; a costly window
            // names where the worker's CPU went (its samples) and what else ran. A worker that spins or polls fails
            // every window.
            List<IdleWindow> windows = new ArrayList<>();
            for (int w = 0; w < 3 && (windows.isEmpty() || windows.getLast().share() >= 0.005); w++) {
                IdleWindow window = IdleWindow.measure(engine, threads, id);
                windows.add(window);
                // a 1 ms park (the backoff without a doorbell) would begin ~1,000 iterations a second
                assertThat(window.iterationsPerSecond()).as("iterations per second while idle: %s", window)
                        .isLessThan(20);
            }
            samples.stop();
            List<String> described = windows.stream().map(w -> w + "; " + samples.describe(w.from(), w.to()))
                    .toList();
            String others = otherWorkers(threads, id);
            // above the 0.1 % goal a warning, which the full suite's WARN logging (set by in-process benches) keeps
            LOG.log(windows.stream().anyMatch(w -> w.share() > 0.001) ? System.Logger.Level.WARNING
                    : System.Logger.Level.INFO, "idle EDP_STANDARD worker, per window: {0}{1}", described, others);
            // the goal is 0.1 % of a core; a loaded machine gets five times that
            assertThat(windows.getLast().share()).as("worker CPU share while idle, per window: %s%s", described,
                    others).isLessThan(0.005);
        }
    }

    /** Iterations of the engine's first worker so far. */
    private static long workerIterations(Engine engine) {
        return engine.stats().workers().getFirst().iterations();
    }

    /**
     * Ends an idle window: returns once the worker of each engine made {@link #WINDOW_ITERATIONS} iterations since
     * it had made {@code from[i]}. The test thread parks between its looks: a thread spinning through the window
     * would be a second busy one beside the measured, on two CPUs.
     */
    private static void awaitIterations(List<Engine> engines, long[] from) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        for (int i = 0; i < engines.size(); i++) {
            while (workerIterations(engines.get(i)) < from[i] + WINDOW_ITERATIONS) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("an idle worker did not iterate " + WINDOW_ITERATIONS + " times in "
                            + SETTLE + ": it sleeps longer than " + Worker.MAX_SLEEP);
                }
                LockSupport.parkNanos(LOOK_NANOS);
            }
        }
    }

    /** Worker threads of other engines still alive (an earlier test's engine not closed, or a stalled worker). */
    private static String otherWorkers(ThreadMXBean threads, long id) {
        List<String> names = Arrays.stream(threads.getThreadInfo(threads.getAllThreadIds(), 0))
                .filter(t -> t != null && t.getThreadId() != id && t.getThreadName().startsWith("edp-worker-"))
                .map(t -> t.getThreadName() + " (" + threads.getThreadCpuTime(t.getThreadId()) / 1_000_000 + " ms)")
                .toList();
        return names.isEmpty() ? "" : "; other engines' workers alive: " + names;
    }

    /**
     * Four iterations of an idle worker (about two seconds): its CPU (and the user-mode part), its iterations and
     * cut-short sleeps, the JVM's collections and compilation, and the CPU time the host took from the machine
     * meanwhile (steal), so that a costly window tells what went on in it.
     */
    private record IdleWindow(Instant from, Instant to, long wallNanos, long cpuNanos, long userNanos,
            long iterations, long wakeups, long collections, long collectionMillis, long compilationMillis,
            long stealMillis) {

        static IdleWindow measure(Engine engine, ThreadMXBean threads, long id) {
            long[] before = jvm();
            long steal0 = machineStealMillis();
            long cpu0 = threads.getThreadCpuTime(id);
            long user0 = threads.getThreadUserTime(id);
            long iterations0 = workerIterations(engine);
            long wakeups0 = IdleWorkers.wakeups(engine);
            Instant from = Instant.now();
            long wall0 = System.nanoTime();
            awaitIterations(List.of(engine), new long[] {iterations0});
            long cpu = threads.getThreadCpuTime(id) - cpu0;
            long user = threads.getThreadUserTime(id) - user0;
            long wall = System.nanoTime() - wall0;
            Instant to = Instant.now();
            long[] after = jvm();
            return new IdleWindow(from, to, wall, cpu, user, workerIterations(engine) - iterations0,
                    IdleWorkers.wakeups(engine) - wakeups0, after[0] - before[0], after[1] - before[1],
                    after[2] - before[2], machineStealMillis() - steal0);
        }

        /** Collections and their milliseconds, and milliseconds of JIT compilation, so far. */
        private static long[] jvm() {
            long count = 0;
            long millis = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                count += gc.getCollectionCount();
                millis += gc.getCollectionTime();
            }
            return new long[] {count, millis, ManagementFactory.getCompilationMXBean().getTotalCompilationTime()};
        }

        /** The machine's steal time so far (the eighth figure of /proc/stat's cpu line, in 1/100 s), 0 without. */
        private static long machineStealMillis() {
            try {
                String[] cpu = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
                return cpu.length > 8 ? Long.parseLong(cpu[8]) * 10 : 0;
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }

        double share() {
            return (double) cpuNanos / wallNanos;
        }

        double iterationsPerSecond() {
            return iterations * 1e9 / wallNanos;
        }

        @Override
        public String toString() {
            return String.format("%.3f %% of a core (%.2f ms CPU, %.2f ms user) in %d ms, %d iterations, %d wake-ups,"
                    + " %d collections (%d ms), %d ms compiling, %d ms stolen by the host", share() * 100,
                    cpuNanos / 1e6, userNanos / 1e6, wallNanos / 1_000_000, iterations, wakeups, collections,
                    collectionMillis, compilationMillis, stealMillis);
        }
    }

    /**
     * Where one thread spends its CPU: JFR's CPU-time samples of it, one per millisecond of its CPU (an idle worker
     * gives one every few seconds), each counted at its innermost frame of the engine and its top frame (a sweep
     * reading memory, or a sleep's system call charged with more than it did).
     */
    private static final class CpuSamples implements AutoCloseable {

        private final RecordingStream stream = new RecordingStream();
        private final List<Map.Entry<Instant, String>> samples = new CopyOnWriteArrayList<>();

        CpuSamples(long threadId) {
            stream.enable("jdk.CPUTimeSample").with("throttle", "1ms");
            stream.onEvent("jdk.CPUTimeSample", e -> {
                if (e.getThread() != null && e.getThread().getJavaThreadId() == threadId) {
                    samples.add(Map.entry(e.getStartTime(), frame(e.getStackTrace())));
                }
            });
            stream.startAsync();
        }

        private static String frame(RecordedStackTrace stack) {
            if (stack == null || stack.getFrames().isEmpty()) {
                return "(no stack)";
            }
            RecordedFrame top = stack.getFrames().getFirst();
            RecordedFrame engine = stack.getFrames().stream()
                    .filter(f -> f.getMethod().getType().getName().startsWith("io.edp.")).findFirst().orElse(top);
            return engine == top ? name(top) : name(engine) + " in " + name(top);
        }

        private static String name(RecordedFrame frame) {
            String type = frame.getMethod().getType().getName();
            return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName() + ":"
                    + frame.getLineNumber();
        }

        /** Waits until every sample taken so far has been delivered. */
        void stop() {
            stream.stop();
        }

        /** The samples taken in {@code [from, to]}, by frame, the most frequent first. */
        String describe(Instant from, Instant to) {
            Map<String, Long> byFrame = samples.stream()
                    .filter(s -> !s.getKey().isBefore(from) && !s.getKey().isAfter(to))
                    .collect(Collectors.groupingBy(Map.Entry::getValue, Collectors.counting()));
            return byFrame.values().stream().mapToLong(Long::longValue).sum() + " CPU-time samples "
                    + byFrame.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                            .limit(8).map(f -> f.getKey() + " x" + f.getValue()).toList();
        }

        @Override
        public void close() {
            stream.close();
        }
    }

    @Test
    void aHundredIdleStandardEnginesCostLessThanATenthOfACore() {
        List<Engine> engines = new ArrayList<>();
        try {
            for (int i = 0; i < 100; i++) {
                engines.add(Engine.start(EngineConfig.builder().mode(Mode.EDP_STANDARD)
                        .port(new PortConfig(0, "uplink0", 0, 1, 1, "loopback", Map.of("sinkFlows", "0")))
                        .flowCache(FlowCacheConfig.DEFAULT.withCapacity(1024)).conntrackCapacity(256).mbufs(1024)
                        .build()));
            }
            engines.forEach(IdleWorkers::awaitLongSleep);
            ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
            long[] ids = engines.stream().mapToLong(e -> e.workerThreadIds()[0]).toArray();
            long[] iterations0 = engines.stream().mapToLong(IdleWorkerTest::workerIterations).toArray();
            long cpu0 = Arrays.stream(ids).map(threads::getThreadCpuTime).sum();
            long wall0 = System.nanoTime();
            awaitIterations(engines, iterations0);
            long cpu = Arrays.stream(ids).map(threads::getThreadCpuTime).sum() - cpu0;
            long wall = System.nanoTime() - wall0;

            // the goal, 0.1 % of a core each; with 1 ms parks 100 idle workers took most of a core
            assertThat((double) cpu / wall).as("CPU share of 100 idle workers").isLessThan(0.10);
        } finally {
            engines.forEach(Engine::close);
        }
    }

    @Test
    void aSleepingWorkerWakesOnTheFirstFrameTheLoopbackNicPutsOnItsQueue() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            IdleWorkers.awaitLongSleep(engine);
            long wakeups = IdleWorkers.wakeups(engine);
            long sent = System.nanoTime();

            TestTopology.nic(engine, 0).startTraffic(TestTopology.routed(1, 1));
            Await.until("the frame to be received", () -> engine.stats().rxPackets() == 1, SETTLE);

            assertThat(IdleWorkers.wakeups(engine)).as("sleeps cut short by the doorbell").isGreaterThan(wakeups);
            assertThat(System.nanoTime() - sent).as("wake-up latency, ns").isLessThan(LONG_SLEEP);
        }
    }

    @Test
    void aPushWakesASleepingWorkerWithoutTraffic() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            IdleWorkers.awaitLongSleep(engine);
            long wakeups = IdleWorkers.wakeups(engine);

            EngineConfig next = engine.config().toBuilder()
                    .route(new Route("10.130.0.0/16", TestTopology.GATEWAY_MAC, 2, 20)).build();
            assertThat(engine.apply(next)).isEqualTo(2);

            assertThat(IdleWorkers.wakeups(engine)).as("sleeps cut short by the push").isGreaterThan(wakeups);
            assertThat(engine.stats().rxPackets()).isZero();
        }
    }

    @Test
    void aWorkerWithAQueueThatCannotRingSleepsAtMostAMillisecond() {
        StallingNic deaf = new StallingNic();
        EngineConfig config = TestTopology.config(Mode.EDP_STANDARD)
                .port(new PortConfig(3, "deaf0", 0, 1, 1, StallingNic.KIND, Map.of())).build();
        try (Engine engine = Engine.start(config, deaf.drivers(), SystemClock.INSTANCE)) {
            Doorbell doorbell = engine.doorbell(0);
            long iterations0 = workerIterations(engine);
            long longest = 0;
            long wall0 = System.nanoTime();
            while (System.nanoTime() - wall0 < 500_000_000L) {
                longest = Math.max(longest, doorbell.sleepNanos());
                Thread.yield();
            }

            assertThat(longest).as("longest sleep, ns").isPositive().isLessThanOrEqualTo(1_000_000);
            assertThat(workerIterations(engine) - iterations0)
                    .as("iterations in half a second (in 0.5 s sleeps: one or two)").isGreaterThan(10);
        }
    }

    @Test
    void anEdpDedicatedWorkerNeverSleeps() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_DEDICATED).build())) {
            long iterations0 = workerIterations(engine);
            Await.until("a million iterations",
                    () -> workerIterations(engine) - iterations0 > 1_000_000, SETTLE);

            assertThat(engine.doorbell(0).sleepNanos()).isZero();
            assertThat(engine.doorbell(0).wakeups()).isZero();
        }
    }
}
