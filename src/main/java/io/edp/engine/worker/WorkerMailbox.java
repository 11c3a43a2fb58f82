package io.edp.engine.worker;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A worker's control mailbox: the control side {@link #send sends} one task at a time and waits, with a deadline,
 * until the worker has {@link #runPending run} it between two bursts. What the task throws is rethrown to the
 * sender.
 */
final class WorkerMailbox {

    private final AtomicReference<Task> pending = new AtomicReference<>();

    private static final class Task {
        final Consumer<Worker> body;
        volatile boolean done;
        Throwable failure;

        Task(Consumer<Worker> body) {
            this.body = body;
        }
    }

    /** Worker thread, between bursts: runs the task waiting, if any. */
    void runPending(Worker worker) {
        Task task = pending.get();
        if (task == null || !pending.compareAndSet(task, null)) {
            return;
        }
        try {
            task.body.accept(worker);
        } catch (Throwable t) {
            task.failure = t;
        }
        task.done = true;
    }

    /**
     * Control side (serialized by the caller): hands {@code body} to the worker running on {@code thread} and
     * returns once it ran, rethrowing what it threw.
     *
     * @throws IllegalStateException when the worker died, or did not run the body within
     *                               {@link Worker#RESPONSE_DEADLINE} (then it never will)
     */
    void send(Worker worker, Thread thread, Consumer<Worker> body) {
        Task task = new Task(body);
        pending.set(task);
        long deadline = System.nanoTime() + Worker.RESPONSE_DEADLINE.toNanos();
        while (!task.done) {
            if (!thread.isAlive() || System.nanoTime() - deadline > 0) {
                boolean withdrawn = pending.compareAndSet(task, null);
                WorkerHealth health = worker.health(System.nanoTime(), 0);
                throw new IllegalStateException(health.state() == WorkerHealth.State.DEAD ? health.reason()
                        : "worker " + worker.id() + (withdrawn ? " did not take" : " did not finish")
                        + " a control task within " + Worker.RESPONSE_DEADLINE.toSeconds() + " s"
                        + (health.isRunning() ? "" : " (" + health.reason() + ")"));
            }
            worker.wake();
            LockSupport.parkNanos(20_000);
        }
        if (task.failure instanceof RuntimeException e) {
            throw e;
        }
        if (task.failure instanceof Error e) {
            throw e;
        }
    }
}
