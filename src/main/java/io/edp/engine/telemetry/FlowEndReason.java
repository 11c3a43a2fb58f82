package io.edp.engine.telemetry;

/**
 * Why a flow record was exported: the values of IPFIX's flowEndReason (element 136, RFC 5102). Ints, not an
 * enum: the worker writes them into a record on the packet path.
 */
public final class FlowEndReason {

    /** No packet for the idle flow timeout. */
    public static final int IDLE_TIMEOUT = 1;
    /** The flow lasted the active flow timeout: its counters so far, then counting starts again. */
    public static final int ACTIVE_TIMEOUT = 2;
    /** The flow ended (TCP FIN or RST). */
    public static final int END_OF_FLOW = 3;
    /** The counters' holder went away: cache expiry, revalidation, flush, mode switch, engine close. */
    public static final int FORCED_END = 4;
    /** The counters' holder was needed for another flow (a cache eviction, a full flow table). */
    public static final int LACK_OF_RESOURCES = 5;

    private FlowEndReason() {
    }
}
