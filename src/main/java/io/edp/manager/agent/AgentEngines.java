package io.edp.manager.agent;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

import io.edp.manager.engines.HostDataPath;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.RemoteEngines;
import io.edp.manager.realization.AgentRealization;
import org.springframework.stereotype.Component;

/** The engines of hosts placed AGENT, as their agents last reported them ({@link AgentEngine}). */
@Component
class AgentEngines implements RemoteEngines {

    private final AgentRepository agents;
    private final AgentRealization realization;
    private final AgentProperties properties;

    AgentEngines(AgentRepository agents, AgentRealization realization, AgentProperties properties) {
        this.agents = agents;
        this.realization = realization;
        this.properties = properties;
    }

    @Override
    public Optional<HostEngine> engine(UUID hostId) {
        return agents.stats(hostId).map(snapshot -> new AgentEngine(hostId, snapshot,
                () -> realization.desired(hostId).map(HostDataPath::engine),
                properties.statsStaleAfter()));
    }

    @Override
    public OptionalLong generation(UUID hostId) {
        return agents.stats(hostId).map(snapshot -> OptionalLong.of(snapshot.generation()))
                .orElse(OptionalLong.empty());
    }
}
