package io.edp.manager.agent;

import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "Agents", description = "Agents run a host's engine on the host itself (placement AGENT)")
class AgentTokenController {

    private final AgentTokens tokens;

    AgentTokenController(AgentTokens tokens) {
        this.tokens = tokens;
    }

    @PostMapping(path = "/api/v1/hosts/{hostId}/agent-token", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(operationId = "issueAgentToken", summary = "Issue a new agent token for a host",
            description = "Operators only. Answers the token once (it is stored only as its SHA-256); it replaces "
                    + "the host's previous token, which stops working at once. The agent sends it as "
                    + "`Authorization: Bearer <token>`; it authenticates only as this host's agent and reaches only "
                    + "/api/v1/agent/hosts/{hostName}/**.")
    AgentTokenResponse issue(@PathVariable UUID hostId) {
        return tokens.issue(hostId);
    }
}
