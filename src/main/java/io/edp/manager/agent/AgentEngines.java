package io.edp.manager.agent;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.RemoteEngines;
import io.edp.manager.realization.AgentRealization;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * The engines of hosts placed AGENT, as their agents last reported them ({@link AgentEngine}). Asked only for hosts
 * without an engine in this process; while the database is away none is found, as before there were agents, so the
 * statistics endpoints answer 404 rather than fail.
 */
@Component
class AgentEngines implements RemoteEngines {

    private final AgentRepository agents;
    private final AgentRealization realization;
    private final AgentProperties properties;
    private final EngineRequests requests;

    AgentEngines(AgentRepository agents, AgentRealization realization, AgentProperties properties,
                 EngineRequests requests) {
        this.agents = agents;
        this.realization = realization;
        this.properties = properties;
        this.requests = requests;
    }

    @Override
    public Optional<HostEngine> engine(UUID hostId) {
        return snapshot(hostId).map(snapshot -> new AgentEngine(hostId, snapshot,
                () -> realization.realizedByAgent(hostId), properties.statsStaleAfter(), requests));
    }

    @Override
    public OptionalLong generation(UUID hostId) {
        return snapshot(hostId).map(snapshot -> OptionalLong.of(snapshot.generation()))
                .orElse(OptionalLong.empty());
    }

    private Optional<AgentRepository.StoredStats> snapshot(UUID hostId) {
        try {
            return agents.stats(hostId);
        } catch (DataAccessException e) {
            return Optional.empty();
        }
    }
}
