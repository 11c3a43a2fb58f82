package io.edp.manager.packetlog;

import java.time.Instant;

import io.edp.engine.packetlog.PacketLogStats;
import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "The firewall packet log of a host's engine, counted since the engine started")
public record PacketLogReport(
        @Schema(description = "When the counters were read") Instant takenAt,
        @Schema(description = "Whether the host's dfwLogging is enabled", example = "true") boolean enabled,
        @Schema(description = "Lines the workers handed to the logger", example = "1200") long linesQueued,
        @Schema(description = "Lines over a worker's rate limit, not written", example = "0") long linesSuppressed,
        @Schema(description = "Lines lost because the hand-off to the logger was full", example = "0")
        long linesLost,
        @Schema(description = "Lines delivered, counted once per output (syslog server or file)", example = "2400")
        long linesWritten,
        @Schema(description = "Lines an output refused, and outputs that could not be opened", example = "0")
        long outputErrors) {

    public static PacketLogReport of(Instant takenAt, PacketLogStats s) {
        return new PacketLogReport(takenAt, s.enabled(), s.queued(), s.suppressed(), s.lost(), s.written(),
                s.outputErrors());
    }
}
