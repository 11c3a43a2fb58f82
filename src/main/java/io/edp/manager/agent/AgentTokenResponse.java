package io.edp.manager.agent;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A host's new agent token: shown this once, stored only hashed")
record AgentTokenResponse(
        @Schema(description = "Id of the host", example = "0b7e6f7a-3c55-4f0e-9f3e-52d9c1a4e2b1") UUID hostId,
        @Schema(description = "Name of the host: the agent's --host", example = "esx-01") String hostName,
        @Schema(description = "The token: write it to the agent's --token-file; it authenticates only as this "
                + "host's agent, and only on /api/v1/agent/hosts/{hostName}/**",
                example = "q3Jp0c6m8wYk2f5yH1vZ9sT4uB7xN0aR2dE6gJ8lK1o") String token,
        @Schema(description = "When it was issued; the previous token stopped working then",
                example = "2026-12-03T11:30:00Z") Instant issuedAt) {
}
