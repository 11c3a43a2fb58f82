package io.edp.engine;

import io.edp.engine.nic.Doorbell;
import io.edp.engine.worker.Worker;
import java.time.Duration;
import java.time.Instant;

/** What the doorbell tests wait for and count: workers in their longest sleep, and sleeps cut short. */
public final class IdleWorkers {

    private static final Duration SETTLE = Duration.ofSeconds(20);

    private IdleWorkers() {
    }

    /** Waits until every worker is in a sleep of the longest kind: the backoff is over, only a ring wakes it. */
    public static void awaitLongSleep(Engine engine) {
        for (int w = 0; w < engine.workerCount(); w++) {
            Doorbell doorbell = engine.doorbell(w);
            Await.until("worker " + w + " to sleep " + Worker.MAX_SLEEP,
                    () -> doorbell.sleepNanos() == Worker.MAX_SLEEP.toNanos(), SETTLE);
        }
    }

    /**
     * Waits until the engine is idle as it stays: its workers in their longest sleep after the one top-flows pass
     * over a cache nobody has passed yet, whose first touch of the cache's memory is a start-up cost.
     */
    public static void awaitIdle(Engine engine) {
        awaitLongSleep(engine);
        Instant asleep = Instant.now();
        Await.until("a top-flows snapshot after the workers slept", () -> engine.topFlows().takenAt() != null
                && engine.topFlows().takenAt().isAfter(asleep), SETTLE);
        awaitLongSleep(engine);
    }

    /** Sleeps of every worker that ended before their timeout. */
    public static long wakeups(Engine engine) {
        long sum = 0;
        for (int w = 0; w < engine.workerCount(); w++) {
            sum += engine.doorbell(w).wakeups();
        }
        return sum;
    }
}
