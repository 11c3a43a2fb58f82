package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "Every firewall rule's counters on one host's engine, summed over its workers, by rule id")
record FirewallRuleStatsReport(@Schema(description = "When the counters were read") Instant takenAt,
                               @Schema(description = "Each rule of the host's rule set, by id")
                               List<FirewallRuleCounters> rules) {
}
