package io.edp.engine.worker;

/**
 * Whether a worker is doing its duty cycle. {@code RUNNING}; {@code STALLED} when it has begun no iteration for
 * longer than the engine's stall threshold (stuck in a driver call, a loop, a task); {@code DEAD} when its thread
 * ended without being stopped. {@code reason} says why for the last two and is null while running, e.g.
 * {@code "worker 1 died: java.lang.InternalError: injected"}.
 */
public record WorkerHealth(int worker, State state, String reason) {

    public enum State {
        RUNNING,
        STALLED,
        DEAD
    }

    static WorkerHealth running(int worker) {
        return new WorkerHealth(worker, State.RUNNING, null);
    }

    public boolean isRunning() {
        return state == State.RUNNING;
    }
}
