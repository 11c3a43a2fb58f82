package io.edp.engine.telemetry;

import io.edp.engine.mbuf.Mbuf;

/**
 * One worker's side of IPFIX: its {@link FlowRecords} ring to the exporter (made when export is first turned
 * on), its {@link FlowTable} for the packets its flow cache does not count, and the packet sampling. Worker
 * thread only, except {@link #records()} and {@link #flows()}, which the exporter and statistics read.
 */
public final class FlowMeter {

    private volatile FlowRecords records;
    private volatile FlowTable table;
    private IpfixConfig config = IpfixConfig.DISABLED;
    private int sampling;
    private int countdown;

    /** The ring to the exporter, null before export was first on. */
    public FlowRecords records() {
        return records;
    }

    /** Where entries' counters go: the ring while export is on, else null. */
    public FlowRecords export() {
        return table == null ? null : records;
    }

    public boolean on() {
        return table != null;
    }

    public IpfixConfig config() {
        return config;
    }

    /** Flows in the flow table now (a racy read off the worker thread). */
    public int flows() {
        FlowTable t = table;
        return t == null ? 0 : t.flows();
    }

    /**
     * Takes a generation's IPFIX settings: turned off, the flow table's flows are exported and it goes; turned
     * on, or resized, a new table (the old one's flows exported first).
     */
    public void adopt(IpfixConfig next) {
        if (next.equals(config)) {
            return;
        }
        if (!next.enabled()) {
            flush(FlowEndReason.FORCED_END);
            table = null;
        } else {
            if (records == null) {
                records = new FlowRecords(FlowRecords.DEFAULT_CAPACITY);
            }
            if (table == null || table.capacity() != next.maxFlows()) {
                flush(FlowEndReason.FORCED_END);
                table = new FlowTable(next.maxFlows(), records);
            }
        }
        config = next;
        sampling = next.sampling();
        countdown = sampling;
    }

    /** Whether this packet is counted: every one at sampling 0, else one in N. */
    public boolean sampled() {
        if (sampling == 0) {
            return true;
        }
        if (--countdown > 0) {
            return false;
        }
        countdown = sampling;
        return true;
    }

    /** Counts {@code m} in the flow table, decided by rule {@code ruleId} towards {@code outPort} (-1: none). */
    public void count(Mbuf m, int ruleId, int outPort, int nowMillis) {
        table.count(m.descriptors(), m.flowKeyAddress(), m.flowHash(), m.dataLength(), ruleId, outPort, nowMillis);
    }

    /** Exports a bounded slice of the flow table's timed-out flows. */
    public void sweep(int nowMillis, int budget) {
        FlowTable t = table;
        if (t != null) {
            t.sweep(nowMillis, budget, config.activeTimeoutMillis(), config.idleTimeoutMillis());
        }
    }

    /** Exports every flow of the flow table and empties it. */
    public void flush(int endReason) {
        FlowTable t = table;
        if (t != null) {
            t.flush(endReason);
        }
    }
}
