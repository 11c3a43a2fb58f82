package io.edp.manager.capture;

import java.time.Instant;
import java.util.UUID;

import io.edp.engine.capture.CaptureStats;
import io.swagger.v3.oas.annotations.media.Schema;

/** A capture and its progress. */
@Schema(description = "A live capture: what it records, its state and counts")
public record CaptureResponse(@Schema(description = "The capture's id") UUID id,
                              @Schema(description = "The host whose engine runs it") UUID hostId,
                              @Schema(description = "The captured port's name", example = "vmnic0") String port,
                              @Schema(description = "RX, TX or BOTH") CaptureRequest.Direction direction,
                              @Schema(description = "The filter as given (empty: every frame)")
                              CaptureRequest.Filter filter,
                              @Schema(description = "The packet limit") long maxPackets,
                              @Schema(description = "The time limit in seconds") int durationSeconds,
                              @Schema(description = "Bytes kept of each frame") int snaplen,
                              @Schema(description = "Whether the file has nanosecond timestamps")
                              boolean nanosecondTimestamps,
                              @Schema(description = "The file's format: PCAP or PCAPNG (packets marked inbound or "
                                      + "outbound)") CaptureRequest.Format format,
                              @Schema(description = "RUNNING, then ENDED") CaptureStats.State state,
                              @Schema(description = "Why it ended; null while it runs")
                              CaptureStats.EndReason endReason,
                              @Schema(description = "Why its file could not be written (endReason FAILED); on a host "
                                      + "placed AGENT, why the manager shows it ended without its agent's word "
                                      + "(ENGINE_CLOSED: the agent restarted; UNREPORTED: the agent has not reported "
                                      + "its end since its time limit)") String failure,
                              @Schema(description = "When it started") Instant startedAt,
                              @Schema(description = "When it ended; null while it runs") Instant endedAt,
                              @Schema(description = "Frames written to the file") long captured,
                              @Schema(description = "Frames that passed the filter but found a worker's capture "
                                      + "ring full: counted, never waited for") long dropped,
                              @Schema(description = "The captured frames' bytes on the wire") long bytes,
                              @Schema(description = "The file's size now: what /pcap returns") long fileBytes) {
}
