package io.edp.manager.stats;

import java.time.Instant;
import java.util.Map;

import io.edp.engine.slowpath.ConnectionTableStats;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A host's connection table: its slots and the live connections in them, per state")
record ConnectionTableReport(
        @Schema(description = "When the table was read") Instant takenAt,
        @Schema(description = "Slots (the host's conntrack capacity)", example = "65536") int capacity,
        @Schema(description = "Live connections (timed-out ones are not counted)", example = "1234") long entries,
        @Schema(description = "entries / capacity, 0..1", example = "0.0188") double occupancy,
        @Schema(description = "Live connections per state (SYN_SENT, ESTABLISHED, FIN_WAIT, CLOSED; ACTIVE for UDP, "
                + "ICMP and other protocols)", example = "{\"ESTABLISHED\": 1200, \"ACTIVE\": 34}")
        Map<String, Long> states) {

    static ConnectionTableReport of(Instant takenAt, ConnectionTableStats stats) {
        return new ConnectionTableReport(takenAt, stats.capacity(), stats.entries(), stats.occupancy(), stats.states());
    }
}
