package io.edp.agent;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import tools.jackson.databind.JsonNode;

/** An agent's statistics snapshot of its engine. */
@Schema(description = "The agent's latest statistics snapshot of its engine")
public record AgentStatsReport(
        @Schema(description = "The generation of the desired state the engine runs", example = "7")
        @NotNull Long generation,
        @Schema(types = "object", description = "The engine's statistics (its EngineStats record as JSON; its "
                + "takenAt says when they were read)") @NotNull JsonNode stats) {
}
