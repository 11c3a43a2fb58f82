package io.edp.manager.realization;

/** Where a host's push stands. */
public enum RealizationState {
    /** The desired generation is ahead of the realized one; a push is due. */
    PENDING,
    /** A reconciler has claimed the host and is pushing. */
    IN_PROGRESS,
    /** The engine runs the desired generation. */
    SUCCESS,
    /** The last push failed (see the reason); it is retried with backoff, the desired state stays. */
    FAILED
}
