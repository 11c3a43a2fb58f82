package io.edp.manager.agent;

import java.util.UUID;

/** Who an agent token authenticates: the agent of this one host, and nothing else. */
public record AgentPrincipal(UUID hostId, String hostName) {
}
