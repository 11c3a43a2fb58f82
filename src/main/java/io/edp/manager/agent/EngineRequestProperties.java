package io.edp.manager.agent;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long an operator's request to the engine of a host placed AGENT waits for the agent's answer before it is
 * answered 504 ({@code edp.agent.request-timeout}).
 */
@ConfigurationProperties("edp.agent")
record EngineRequestProperties(@DefaultValue("10s") Duration requestTimeout) {
}
