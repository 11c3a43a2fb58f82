package io.edp.manager.engines;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * Engines that run outside this process: those of hosts placed AGENT, each in its agent on the host. The agent
 * module implements it; {@link HostEngines#engine} and {@link HostEngines#generation} find a host's engine here when
 * none runs in this process.
 */
public interface RemoteEngines {

    /**
     * The engine of the host's agent, if the host is placed AGENT and its agent has reported statistics (503 while it
     * has not), or of a host placed EMBEDDED that another replica runs.
     */
    Optional<HostEngine> engine(UUID hostId);

    /** The hosts whose engine {@link #engine} reaches. */
    Set<UUID> hosts();

    /** The generation the agent's engine ran at its last statistics snapshot. */
    OptionalLong generation(UUID hostId);
}
