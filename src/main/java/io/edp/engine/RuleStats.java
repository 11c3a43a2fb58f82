package io.edp.engine;

/**
 * One firewall rule's counters over every worker of an engine: the packets and bytes it decided (matched, or let
 * through as part of a connection it allowed; fast-path hits included) and the connections it allowed to start.
 * Kept by rule id for as long as the rule set keeps the id (see {@link Engine#ruleStats()}).
 */
public record RuleStats(int ruleId, long packets, long bytes, long connections) {
}
