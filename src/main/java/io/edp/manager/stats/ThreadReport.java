package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;

import io.edp.engine.Mode;
import io.edp.engine.worker.WorkerHealth;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "Worker threads (EnsNetWorld / lcores) of a host's engine at one instant")
record ThreadReport(
        @Schema(description = "When the snapshot was taken") Instant takenAt,
        @Schema(description = "The engine's data-path mode", example = "EDP_STANDARD") Mode mode,
        @Schema(description = "Each worker, by worker number") List<WorkerThread> workers) {

    @Schema(description = "One worker thread")
    record WorkerThread(
            @Schema(description = "Worker number, from 0", example = "0") int worker,
            @Schema(description = "NUMA node it runs on", example = "0") int numaNode,
            @Schema(description = "RUNNING; STALLED when it began no iteration for 2 s; DEAD when its thread ended. "
                    + "A host with a worker that is not RUNNING has a FAILED realization, and its next push rebuilds "
                    + "the engine", example = "RUNNING") WorkerHealth.State state,
            @Schema(description = "Why it is STALLED or DEAD; null while RUNNING",
                    example = "worker 1 died: java.lang.InternalError: injected") String stateReason,
            @Schema(description = "Throwables its duty cycle caught (and survived, but for the one that killed it)",
                    example = "0") long exceptions,
            @Schema(description = "Busy share of its life so far, percent (rounded down)", example = "42")
            int utilizationPercent,
            @Schema(description = "Time in non-empty bursts", example = "4200000000") long busyNanos,
            @Schema(description = "Time since it started", example = "10000000000") long wallNanos,
            @Schema(description = "Frames it read from its RX queues", example = "1000000") long rxPackets,
            @Schema(description = "Frames it transmitted", example = "1000000") long txPackets,
            @Schema(description = "Packets that ran the IOChain", example = "10000") long ioChainPackets,
            @Schema(description = "Duty cycles it ran, empty ones included", example = "500000") long iterations,
            @Schema(description = "RX queues it polls, as port/queue", example = "[\"0/0\", \"0/1\"]")
            List<String> queues) {
    }
}
