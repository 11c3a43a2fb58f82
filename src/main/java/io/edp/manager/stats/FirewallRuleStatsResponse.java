package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A firewall rule's counters summed over every host's engine, and per host")
record FirewallRuleStatsResponse(
        @Schema(description = "Id of the rule", example = "1") long ruleId,
        @Schema(description = "When the engines were read") Instant takenAt,
        @Schema(description = "Packets it decided, both directions", example = "15230") long packets,
        @Schema(description = "Bytes of those packets (whole frames)", example = "9876543") long bytes,
        @Schema(description = "Connections it allowed to start", example = "42") long connections,
        @Schema(description = "The hosts whose engine runs the rule") List<HostCounters> hosts) {

    @Schema(description = "The rule's counters on one host, summed over its workers")
    record HostCounters(@Schema(description = "Id of the host") UUID hostId,
                        @Schema(description = "Packets the rule decided there", example = "7615") long packets,
                        @Schema(description = "Bytes of those packets", example = "4938271") long bytes,
                        @Schema(description = "Connections it allowed to start there", example = "21")
                        long connections) {
    }
}
