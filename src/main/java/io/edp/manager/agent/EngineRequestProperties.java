package io.edp.manager.agent;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Operators' requests to the engine of a host placed AGENT (or embedded, from a replica without engines).
 *
 * @param requestTimeout     how long one waits for the agent's answer before it is answered 504
 * @param concurrentRequests how many may wait on request threads at once on this replica; one more is answered 503
 *                           at once, so that an agent that does not answer cannot take all of Tomcat's request
 *                           threads (200) from the probes and the statistics of embedded hosts
 */
@ConfigurationProperties("edp.agent")
record EngineRequestProperties(@DefaultValue("10s") Duration requestTimeout,
                               @DefaultValue("50") int concurrentRequests) {

    EngineRequestProperties {
        if (concurrentRequests < 1) {
            throw new IllegalArgumentException("edp.agent.concurrent-requests must be at least 1");
        }
    }
}
