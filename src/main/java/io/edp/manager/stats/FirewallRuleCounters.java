package io.edp.manager.stats;

import io.edp.engine.RuleStats;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A firewall rule's counters: the packets and bytes it decided (matched, or let through as part "
        + "of a connection it allowed; fast-path hits included) and the connections it allowed to start")
record FirewallRuleCounters(
        @Schema(description = "Id of the rule", example = "1") long ruleId,
        @Schema(example = "15230") long packets,
        @Schema(example = "9876543") long bytes,
        @Schema(example = "42") long connections) {

    static FirewallRuleCounters of(RuleStats stats) {
        return new FirewallRuleCounters(stats.ruleId(), stats.packets(), stats.bytes(), stats.connections());
    }
}
