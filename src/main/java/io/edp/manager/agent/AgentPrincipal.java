package io.edp.manager.agent;

import java.security.Principal;
import java.util.UUID;

/** Who an agent token authenticates: the agent of this one host, and nothing else. */
public record AgentPrincipal(UUID hostId, String hostName) implements Principal {

    /** How the audit trail names the agent (its username column holds 63 characters). */
    @Override
    public String getName() {
        var name = "agent:" + hostName;
        return name.length() <= 63 ? name : name.substring(0, 63);
    }
}
