package io.edp.manager.stats;

import io.edp.engine.RuleStats;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A firewall rule's counters: the packets and bytes it decided (matched, or let through as part "
        + "of a connection it allowed; fast-path hits included) and the connections it allowed to start")
record FirewallRuleCounters(
        @Schema(description = "Id of the rule", example = "1") long ruleId,
        @Schema(description = "Packets it decided, both directions", example = "15230") long packets,
        @Schema(description = "Bytes of those packets (whole frames)", example = "9876543") long bytes,
        @Schema(description = "Connections it allowed to start", example = "42") long connections) {

    static FirewallRuleCounters of(RuleStats stats) {
        return new FirewallRuleCounters(stats.ruleId(), stats.packets(), stats.bytes(), stats.connections());
    }
}
