package io.edp.manager.capture;

import java.time.Instant;
import java.util.UUID;

import io.edp.engine.capture.CaptureStats;
import io.swagger.v3.oas.annotations.media.Schema;

/** A capture and its progress. */
@Schema(description = "A live capture: what it records, its state and counts")
public record CaptureResponse(UUID id, UUID hostId, String port, CaptureRequest.Direction direction,
                              CaptureRequest.Filter filter, long maxPackets, int durationSeconds, int snaplen,
                              boolean nanosecondTimestamps, CaptureStats.State state,
                              @Schema(description = "Why it ended; null while it runs") CaptureStats.EndReason endReason,
                              @Schema(description = "Why its file could not be written (endReason FAILED)") String failure,
                              Instant startedAt, Instant endedAt,
                              @Schema(description = "Frames written to the file") long captured,
                              @Schema(description = "Frames that passed the filter but found a worker's capture "
                                      + "ring full: counted, never waited for") long dropped,
                              @Schema(description = "The captured frames' bytes on the wire") long bytes,
                              @Schema(description = "The pcap file's size now: what /pcap returns") long fileBytes) {
}
