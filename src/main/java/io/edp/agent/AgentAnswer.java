package io.edp.agent;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;
import tools.jackson.databind.JsonNode;

/** The agent's answer to one {@link EngineRequest}: its result, or the problem that refused it. */
@Schema(description = "The agent's answer to an engine request: its result, or an error (not both)")
public record AgentAnswer(
        @Schema(types = {"object", "array", "integer", "boolean"}, description = "The operation's result as the "
                + "engine's records in JSON; null for none (a flush) or when there is nothing (no traffic run)")
        JsonNode result,
        @Schema(description = "Why the engine refused the request; null when it did it") @Valid Error error) {

    static final int MAX_FIELD = 255;
    static final int MAX_MESSAGE = 10_000;

    @Schema(name = "AgentAnswerError",
            description = "An engine's refusal, as the manager's API would answer it for an embedded host")
    public record Error(
            @Schema(description = "400 (a bad argument: field names it), 404 (no engine runs), 409 (a conflict, e.g. "
                    + "traffic already running), 500 (the engine failed)", example = "409") int status,
            @Schema(description = "For 400: the request field at fault", example = "nic")
            @Size(max = MAX_FIELD) String field,
            @Schema(description = "Why", example = "Traffic is already running on this engine; stop it first")
            @Size(max = MAX_MESSAGE) String message) {
    }

    public static AgentAnswer of(Object result) {
        return new AgentAnswer(result == null ? null : EngineJson.tree(result), null);
    }

    /** A refusal, its texts cut to the bounds the manager accepts (a longer one would lose the whole answer). */
    public static AgentAnswer refused(int status, String field, String message) {
        return new AgentAnswer(null, new Error(status, cut(field, MAX_FIELD), cut(message, MAX_MESSAGE)));
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }
}
