package io.edp.engine;

import io.edp.engine.worker.Generation;
import io.edp.engine.worker.Worker;
import io.edp.engine.worker.WorkerHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * An engine's workers as the control side sees them: their health, and the waits for them — a grace period
 * ({@link #awaitAdoption}), an iteration begun by all ({@link #sync}) — each with a deadline, so no control call
 * hangs on a worker that died or stalled. On a stepped engine the workers have no threads and a wait first runs
 * one duty cycle of each ({@link #step}) on the caller's thread.
 */
final class WorkerGroup {

    private static final long STALL_NANOS = Worker.STALL_THRESHOLD.toNanos();
    /**
     * A wait checks its workers after 10 µs, then twice as long each time up to 1 ms: many engines in one process
     * (an agent launcher's, the embedded hosts') pushed at once spun every 10 µs each and took the CPU their own
     * workers needed to respond.
     */
    private static final long MIN_PAUSE_NANOS = 10_000;
    private static final long MAX_PAUSE_NANOS = 1_000_000;

    private final Worker[] workers;
    private final boolean stepped;

    WorkerGroup(Worker[] workers, boolean stepped) {
        this.workers = workers;
        this.stepped = stepped;
    }

    /** One duty cycle of every worker, in id order, on the caller's thread; returns the frames received. */
    int step() {
        int received = 0;
        for (Worker w : workers) {
            received += w.doWork();
        }
        return received;
    }

    /** Returns once every worker has started a new iteration (see {@link Engine#sync}). */
    void sync() {
        long[] seen = new long[workers.length];
        for (int i = 0; i < workers.length; i++) {
            seen[i] = workers[i].epoch();
        }
        awaitWorkers("begin an iteration", w -> w.epoch() != seen[w.id()]);
    }

    /** Waits until every worker runs {@code g}: none handles a packet under an older generation any more. */
    void awaitAdoption(Generation g) {
        awaitWorkers("take generation " + g.number(), w -> w.adoptedGeneration() == g.number());
    }

    /**
     * Waits until {@code done} holds for every worker, ringing sleeping ones; throws as soon as one is dead, or when
     * {@link Worker#RESPONSE_DEADLINE} has passed, naming the worker and its health.
     */
    private void awaitWorkers(String what, Predicate<Worker> done) {
        if (stepped) {
            step(); // every worker begins an iteration, on this thread
        }
        long deadline = System.nanoTime() + Worker.RESPONSE_DEADLINE.toNanos();
        long pause = MIN_PAUSE_NANOS;
        for (Worker w : workers) {
            while (!done.test(w)) {
                long now = System.nanoTime();
                WorkerHealth health = w.health(now, STALL_NANOS);
                if (health.state() == WorkerHealth.State.DEAD) {
                    throw new IllegalStateException(health.reason());
                }
                if (now - deadline > 0) {
                    throw new IllegalStateException("worker " + w.id() + " did not " + what + " within "
                            + Worker.RESPONSE_DEADLINE.toSeconds() + " s"
                            + (health.isRunning() ? "" : " (" + health.reason() + ")"));
                }
                w.wake();
                LockSupport.parkNanos(pause);
                pause = Math.min(2 * pause, MAX_PAUSE_NANOS);
            }
        }
    }

    /** Each worker's health now (see {@link Engine#health}). */
    List<WorkerHealth> health() {
        long now = System.nanoTime();
        List<WorkerHealth> health = new ArrayList<>(workers.length);
        for (Worker w : workers) {
            health.add(w.health(now, STALL_NANOS));
        }
        return List.copyOf(health);
    }

    /** The first worker that is not running, if any: an engine with one needs rebuilding. */
    Optional<WorkerHealth> fault() {
        for (WorkerHealth h : health()) {
            if (!h.isRunning()) {
                return Optional.of(h);
            }
        }
        return Optional.empty();
    }
}
