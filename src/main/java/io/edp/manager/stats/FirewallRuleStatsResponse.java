package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A firewall rule's counters summed over every host's engine, and per host")
record FirewallRuleStatsResponse(
        @Schema(description = "Id of the rule", example = "1") long ruleId,
        @Schema(description = "When the engines were read") Instant takenAt,
        @Schema(example = "15230") long packets,
        @Schema(example = "9876543") long bytes,
        @Schema(example = "42") long connections,
        @Schema(description = "The hosts whose engine runs the rule") List<HostCounters> hosts) {

    @Schema(description = "The rule's counters on one host, summed over its workers")
    record HostCounters(UUID hostId, @Schema(example = "7615") long packets, @Schema(example = "4938271") long bytes,
                        @Schema(example = "21") long connections) {
    }
}
