package io.edp.engine.telemetry;

import io.edp.engine.packet.FlowKey;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * One worker's per-packet flow table, as the legacy switch's IPFIX keeps one: every LEGACY packet, and each EDP
 * packet the flow cache does not count (TCP SYN/FIN/RST, firewall drops, slow-path-only frames), is looked up
 * here and counted. Open addressing over {@link #PROBE} slots from the key's hash, no objects per entry; a key
 * that finds them all taken exports and replaces the least recently seen. Worker thread only.
 * <pre>
 *  word  field
 *   0-5  the flow key words 0..5 of {@link FlowKey}
 *   6    packets
 *   7    bytes
 *   8    first seen ms (32..63), last seen ms (0..31)
 *   9    rule id (32..63), egress port + 1 (16..31), OR of TCP flags (0..7)
 * </pre>
 */
public final class FlowTable {

    private static final int WORDS = 10;
    private static final int PROBE = 8;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private final long[] entries;
    /** The key's hash per slot, 0 for empty (a flow hash is never 0). */
    private final int[] signatures;
    private final int mask;
    private final FlowRecords records;
    private int sweepCursor;
    private int flows;

    public FlowTable(int capacity, FlowRecords records) {
        this.entries = new long[capacity * WORDS];
        this.signatures = new int[capacity];
        this.mask = capacity - 1;
        this.records = records;
    }

    public int capacity() {
        return mask + 1;
    }

    /** Flows with an entry now. */
    public int flows() {
        return flows;
    }

    /**
     * Counts one packet of the flow whose key is at {@code keyBase}; a TCP FIN or RST ends the flow (exported at
     * once).
     */
    public void count(MemorySegment d, long keyBase, int hash, int bytes, int ruleId, int outPort, int nowMillis) {
        int slot = slotFor(d, keyBase, hash, nowMillis);
        int base = slot * WORDS;
        int tcpFlags = FlowKey.tcpFlags(d, keyBase);
        if (entries[base + 6] == 0) {
            entries[base + 8] = (long) nowMillis << 32;
        }
        entries[base + 6]++;
        entries[base + 7] += bytes;
        entries[base + 8] = (entries[base + 8] & 0xFFFF_FFFF_0000_0000L) | (nowMillis & 0xFFFF_FFFFL);
        entries[base + 9] = ((long) ruleId << 32) | ((long) ((outPort + 1) & 0xFFFF) << 16)
                | ((entries[base + 9] | tcpFlags) & 0xFF);
        if ((tcpFlags & (FlowKey.TCP_FIN | FlowKey.TCP_RST)) != 0) {
            retire(slot, FlowEndReason.END_OF_FLOW);
        }
    }

    /** Exports flows idle or active past their timeouts, over up to {@code budget} slots from the last sweep's end. */
    public void sweep(int nowMillis, int budget, int activeMillis, int idleMillis) {
        int cursor = sweepCursor;
        for (int i = 0; i < budget; i++) {
            if (signatures[cursor] != 0) {
                int base = cursor * WORDS;
                long seen = entries[base + 8];
                if (nowMillis - (int) seen >= idleMillis) {
                    retire(cursor, FlowEndReason.IDLE_TIMEOUT);
                } else if (nowMillis - (int) (seen >>> 32) >= activeMillis) {
                    export(base, FlowEndReason.ACTIVE_TIMEOUT);
                    entries[base + 6] = 0;
                    entries[base + 7] = 0;
                    entries[base + 9] &= ~0xFFL;
                }
            }
            cursor = (cursor + 1) & mask;
        }
        sweepCursor = cursor;
    }

    /** Exports every flow and empties the table (mode switch, export turned off, engine close). */
    public void flush(int endReason) {
        for (int slot = 0; slot <= mask; slot++) {
            if (signatures[slot] != 0) {
                export(slot * WORDS, endReason);
            }
        }
        Arrays.fill(signatures, 0);
        flows = 0;
    }

    private int slotFor(MemorySegment d, long keyBase, int hash, int nowMillis) {
        int free = -1;
        int victim = -1;
        for (int p = 0; p < PROBE; p++) {
            int slot = (hash + p) & mask;
            int signature = signatures[slot];
            if (signature == 0) {
                free = free < 0 ? slot : free;
            } else if (signature == hash && matches(slot * WORDS, d, keyBase)) {
                return slot;
            } else if (victim < 0 || (int) entries[slot * WORDS + 8] - (int) entries[victim * WORDS + 8] < 0) {
                victim = slot;
            }
        }
        if (free < 0) {
            retire(victim, FlowEndReason.LACK_OF_RESOURCES);
            free = victim;
        }
        int base = free * WORDS;
        for (int w = 0; w < 6; w++) {
            entries[base + w] = d.get(LONG, keyBase + 8L * w);
        }
        entries[base + 6] = 0;
        entries[base + 7] = 0;
        entries[base + 8] = (long) nowMillis << 32;
        entries[base + 9] = 0;
        signatures[free] = hash;
        flows++;
        return free;
    }

    private boolean matches(int base, MemorySegment d, long keyBase) {
        for (int w = 0; w < 6; w++) {
            if (entries[base + w] != d.get(LONG, keyBase + 8L * w)) {
                return false;
            }
        }
        return true;
    }

    private void retire(int slot, int endReason) {
        export(slot * WORDS, endReason);
        signatures[slot] = 0;
        flows--;
    }

    private void export(int base, int endReason) {
        long seen = entries[base + 8];
        long labels = entries[base + 9];
        records.offer(entries, base, entries[base + 6], entries[base + 7], (int) (seen >>> 32), (int) seen,
                FlowRecords.tcpFlags(labels), endReason, FlowRecords.ruleId(labels), FlowRecords.outPort(labels));
    }
}
