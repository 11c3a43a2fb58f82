package io.edp.manager.stats;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A firewall rule's counters summed over every host's engine that answered, per host, and the "
        + "hosts whose engine did not answer (not counted)")
record FirewallRuleStatsResponse(
        @Schema(description = "Id of the rule", example = "1") long ruleId,
        @Schema(description = "When the engines were read") Instant takenAt,
        @Schema(description = "Packets it decided, both directions", example = "15230") long packets,
        @Schema(description = "Bytes of those packets (whole frames)", example = "9876543") long bytes,
        @Schema(description = "Connections it allowed to start", example = "42") long connections,
        @Schema(description = "The hosts whose engine runs the rule") List<HostCounters> hosts,
        @Schema(description = "Hosts whose engine did not answer (an agent away, the replica running the embedded "
                + "engines unreachable): their counters are not in the sums") List<UnansweredHost> unanswered) {

    @Schema(description = "A host whose engine did not answer, and why")
    record UnansweredHost(@Schema(description = "Id of the host") UUID hostId,
                          @Schema(description = "Why", example = "The agent of host … did not answer within 10000 ms")
                          String reason) {
    }

    @Schema(description = "The rule's counters on one host, summed over its workers")
    record HostCounters(@Schema(description = "Id of the host") UUID hostId,
                        @Schema(description = "Packets the rule decided there", example = "7615") long packets,
                        @Schema(description = "Bytes of those packets", example = "4938271") long bytes,
                        @Schema(description = "Connections it allowed to start there", example = "21")
                        long connections) {
    }
}
