package io.edp.manager.agent;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The manager's side of its agents.
 *
 * @param connectedWithin an agent heard from within this long counts as connected (its long polls last at most
 *                        {@code maxWait}, and it reports statistics every 10 s by default)
 * @param maxWait         the longest a desired-state long poll may wait
 * @param statsStaleAfter statistics snapshots older than this are shown as stale
 */
@ConfigurationProperties("edp.agent")
public record AgentProperties(@DefaultValue("60s") Duration connectedWithin, @DefaultValue("60s") Duration maxWait,
                              @DefaultValue("30s") Duration statsStaleAfter) {
}
