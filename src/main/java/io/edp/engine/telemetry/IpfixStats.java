package io.edp.engine.telemetry;

/**
 * IPFIX export of an engine since it started: data records and messages sent (a message counts once per
 * collector), template records sent, sends that failed, records the workers' rings had no room for (lost from
 * the export), and flows whose counters wait to be exported.
 */
public record IpfixStats(boolean enabled, long recordsExported, long messagesSent, long templatesSent,
        long exportErrors, long recordsDropped, long flowsActive) {

    public static final IpfixStats NONE = new IpfixStats(false, 0, 0, 0, 0, 0, 0);
}
