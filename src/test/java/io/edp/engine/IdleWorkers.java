package io.edp.engine;

import io.edp.engine.nic.Doorbell;
import io.edp.engine.worker.Worker;
import java.time.Duration;

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

    /** Sleeps of every worker that ended before their timeout. */
    public static long wakeups(Engine engine) {
        long sum = 0;
        for (int w = 0; w < engine.workerCount(); w++) {
            sum += engine.doorbell(w).wakeups();
        }
        return sum;
    }
}
