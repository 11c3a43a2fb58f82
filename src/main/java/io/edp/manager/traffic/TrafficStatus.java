package io.edp.manager.traffic;

import java.time.Instant;
import java.util.Map;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A traffic run: what was sent and what became of it, since it started")
public record TrafficStatus(
        @Schema(description = "The loopback physical NIC the frames arrive on", example = "vmnic0") String nic,
        @Schema(description = "True until the packet count or duration is reached, or it is stopped")
        boolean running,
        @Schema(description = "When the run started") Instant startedAt,
        @Schema(description = "When these counters were read") Instant takenAt,
        @Schema(description = "Frames the generator handed to the engine", example = "1000000") long sent,
        @Schema(description = "Frames transmitted to the far ends of every port (the sinks)", example = "999000")
        long received,
        @Schema(description = "Frames the engine dropped, by reason",
                example = "{\"FIREWALL_DROP\": 1000}") Map<String, Long> dropped,
        @Schema(description = "Sequence numbers the sinks never saw within their flows", example = "1000")
        long lost,
        @Schema(description = "Frames that arrived after a later frame of their flow", example = "0")
        long reordered,
        @Schema(description = "The profile, every default filled in") TrafficRequest profile) {
}
