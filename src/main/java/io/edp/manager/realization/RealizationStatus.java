package io.edp.manager.realization;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "Realization of a host's desired state: poll until realizedGeneration reaches the generation "
        + "a change produced and state is SUCCESS")
public record RealizationStatus(
        @Schema(description = "Id of the host", example = "0b7e6f7a-3c55-4f0e-9f3e-52d9c1a4e2b1") UUID hostId,
        @Schema(description = "Bumped by every change to what the host should run", example = "7")
        long desiredGeneration,
        @Schema(description = "The generation the host's engine last took", example = "7") long realizedGeneration,
        @Schema(description = "PENDING: a change waits to be pushed; IN_PROGRESS: being pushed; SUCCESS: the "
                + "engine runs realizedGeneration; FAILED: the last push failed (failureReason), retried at "
                + "nextAttemptAt", example = "SUCCESS") RealizationState state,
        @Schema(description = "Why the last push failed; null after a success", example = "null")
        String failureReason,
        @Schema(description = "Failed pushes since the last success or change", example = "0") int failedAttempts,
        @Schema(description = "When a push was last tried") Instant lastAttemptAt,
        @Schema(description = "When a push last succeeded") Instant lastSuccessAt,
        @Schema(description = "When a retry is due (FAILED)") Instant nextAttemptAt) {
}
