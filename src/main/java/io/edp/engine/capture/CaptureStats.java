package io.edp.engine.capture;

import java.time.Instant;

/**
 * A capture's progress: frames written to its file, frames its rings had no room for, and the bytes of the frames
 * written as they were on the wire.
 *
 * @param endReason null while it runs
 * @param failure   why writing the file failed (endReason FAILED), else null
 * @param fileBytes the leading bytes of the file that hold whole records: what a reader may take now
 * @param endedAt   when it ended (wall clock), null while it runs
 */
public record CaptureStats(State state, EndReason endReason, String failure, long captured, long dropped, long bytes,
        long fileBytes, Instant endedAt) {

    public enum State {
        RUNNING, ENDED
    }

    /** Why a capture ended. */
    public enum EndReason {
        /** It wrote its {@code maxPackets} frames. */
        PACKET_LIMIT,
        /** Its {@code maxDuration} passed. */
        TIME_LIMIT,
        /** Someone stopped it. */
        STOPPED,
        /** Its engine closed (the manager rebuilt or removed the host's engine). */
        ENGINE_CLOSED,
        /** Its file could not be written. */
        FAILED,
        /**
         * Never an engine's: the manager's word for a capture on a host placed AGENT whose agent has not reported
         * its end for a while after its time limit (unreachable, or gone); what the agent reports later replaces it.
         */
        UNREPORTED
    }
}
