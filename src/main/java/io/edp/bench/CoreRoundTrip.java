package io.edp.bench;

import io.edp.engine.numa.CpuAffinity;
import io.edp.engine.numa.CpuSet;
import java.util.concurrent.TimeUnit;

/**
 * How long a cache line takes to go from one CPU to another and back: two threads, one pinned to each set, pass a
 * counter through one shared line in turn. Every frame of the engine benchmark crosses from the traffic generator's
 * core to the worker's, and on this project's 2-vCPU host this latency turned four-fold within seconds, so the bench
 * records it beside each window as one of the host's states (docs/benchmarks.md).
 */
final class CoreRoundTrip {

    /** Round trips timed, after as many untimed: about 25 ms each at 500 ns a trip. */
    static final int TRIPS = 50_000;
    private static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long NOT_READY = -2;
    private static final long STOP = -1;
    /** Spins between reads of the clock, which would otherwise lengthen every trip. */
    private static final int SPINS_PER_CLOCK_READ = 1 << 12;

    /** The asker writes odd values, the answerer the next even one; both spin on it without pausing. */
    private volatile long token = NOT_READY;
    private final long deadline = System.nanoTime() + LIMIT_NANOS;
    private double nanos = -1;

    private CoreRoundTrip() {
    }

    /**
     * Mean ns of a round trip between {@code first} and {@code second} over {@link #TRIPS} trips (fewer when the
     * machine lets them take more than 2 s), or -1 when there are not two different CPUs to pin the threads to.
     */
    static double nanos(CpuSet first, CpuSet second) {
        if (first.isEmpty() || second.isEmpty() || first.equals(second) || !CpuAffinity.isSupported()) {
            return -1;
        }
        CoreRoundTrip line = new CoreRoundTrip();
        Thread answerer = Thread.ofPlatform().daemon().name("edp-bench-round-trip-answer").start(() -> {
            CpuAffinity.pinCurrentThread(second);
            line.answer();
        });
        Thread asker = Thread.ofPlatform().daemon().name("edp-bench-round-trip-ask").start(() -> {
            CpuAffinity.pinCurrentThread(first);
            line.ask();
        });
        join(asker);
        line.token = STOP;
        join(answerer);
        return line.nanos;
    }

    private void ask() {
        while (token == NOT_READY && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // the answerer is not pinned yet
        }
        long start = 0;
        int trips = -TRIPS; // as many untimed first, while the JIT compiles these loops
        while (trips < TRIPS) {
            if (trips == 0) {
                start = System.nanoTime();
            }
            long sent = 2L * (trips + TRIPS) + 1;
            token = sent;
            if (!answered(sent)) {
                break;
            }
            trips++;
        }
        nanos = trips <= 0 ? -1 : (double) (System.nanoTime() - start) / trips;
    }

    /** Spins until the answerer has answered {@code sent}; false when the deadline passed first. */
    private boolean answered(long sent) {
        for (int spins = 1; token == sent; spins++) {
            if (late(spins)) {
                return false;
            }
        }
        return true;
    }

    private void answer() {
        token = 0;
        for (int spins = 1; ; spins++) {
            long t = token;
            if (t == STOP || late(spins)) {
                return;
            }
            if ((t & 1) == 1) {
                token = t + 1;
            }
        }
    }

    /** Whether the deadline passed, read every {@link #SPINS_PER_CLOCK_READ} spins. */
    private boolean late(int spins) {
        return spins % SPINS_PER_CLOCK_READ == 0 && System.nanoTime() > deadline;
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
