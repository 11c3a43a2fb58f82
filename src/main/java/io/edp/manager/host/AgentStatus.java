package io.edp.manager.host;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;

/** What the manager last heard from a host's agent. */
@Schema(description = "Connectivity of the host's agent (placement AGENT)")
public record AgentStatus(
        @Schema(description = "Whether the agent was heard from recently (a long poll, a report or a statistics "
                + "snapshot within edp.agent.connected-within, 60 s by default)", example = "true")
        boolean connected,
        @Schema(description = "When the agent was last heard from; null if never", example = "2026-12-03T11:30:00Z")
        Instant lastSeen,
        @Schema(description = "The agent's version, as it reported it; null if never heard from",
                example = "0.1.0") String version,
        @Schema(description = "Whether an agent token has been issued (POST /api/v1/hosts/{id}/agent-token)",
                example = "true") boolean tokenIssued) {

    /** An agent that was never heard from and has no token. */
    public static final AgentStatus NONE = new AgentStatus(false, null, null, false);
}
