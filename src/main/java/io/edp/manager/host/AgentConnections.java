package io.edp.manager.host;

import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * What the agents of hosts last reported, for the host responses. Implemented by the agent feature, which owns
 * that state; declared here so that hosts need not depend on it.
 */
public interface AgentConnections {

    /** The status of each of {@code hostIds} that has any (no entry: {@link AgentStatus#NONE}). */
    Map<UUID, AgentStatus> of(Collection<UUID> hostIds);
}
