package io.edp.manager.capture;

import java.time.Instant;
import java.util.UUID;

import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.CaptureStats;

/** A capture as it was started: what the API shows of it besides its state and counts. */
record StartedCapture(UUID id, UUID hostId, String port, CaptureRequest.Direction direction,
                      CaptureRequest.Filter filter, Instant startedAt, CaptureSpec spec) {

    /** When the capture ends at the latest, by its time limit. */
    Instant endsBy() {
        return startedAt.plus(spec.maxDuration());
    }

    CaptureResponse response(CaptureStats s) {
        return new CaptureResponse(id, hostId, port, direction, filter, spec.maxPackets(),
                (int) spec.maxDuration().toSeconds(), spec.snaplen(), spec.nanosecondTimestamps(),
                CaptureRequest.Format.valueOf(spec.format().name()), s.state(),
                s.endReason(), s.failure(), startedAt, s.endedAt(), s.captured(), s.dropped(), s.bytes(),
                s.fileBytes());
    }
}
