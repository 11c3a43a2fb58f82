package io.edp.agent;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** What an agent did with a desired generation. */
@Schema(description = "What the agent did with a desired generation")
public record AgentRealizationReport(
        @Schema(description = "The generation of the desired state the agent applied (or failed to)", example = "7")
        @NotNull @Min(1) Long generation,
        @Schema(description = "SUCCESS: the engine runs it; FAILED: it could not (reason says why; the engine "
                + "keeps what it ran and the agent retries)", allowableValues = {"SUCCESS", "FAILED"},
                example = "SUCCESS") @NotNull State state,
        @Schema(description = "Why it failed; ignored for SUCCESS", example = "ports[id=0]: interface 'eth9' is "
                + "not allowed") @Size(max = 1000) String reason) {

    /** The outcome of applying a desired state. */
    public enum State {
        SUCCESS,
        FAILED
    }
}
