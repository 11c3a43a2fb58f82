package io.edp.engine.slowpath;

import java.util.Arrays;

/**
 * One worker's interned actions: equal decisions share one {@link Action} and one index. Interning is a probe
 * over primitive arrays with the fields as arguments, so only a never-seen action allocates. Owned by one
 * worker; when it fills up the worker clears it together with its flow cache (which holds its indices).
 */
public final class ActionTable {

    /** {@link #ruleIndex} of an action whose rule was not looked up yet. */
    public static final int UNRESOLVED = -2;

    private final Action[] actions;
    /** Per action: the index of its rule in the generation's rule set, filled in by the rule counters. */
    private final int[] ruleIndexes;
    private final int[] slots;
    private final int mask;
    private int size;

    public ActionTable(int capacity) {
        this.actions = new Action[capacity];
        this.ruleIndexes = new int[capacity];
        int table = slotCount(capacity);
        this.slots = new int[table];
        this.mask = table - 1;
        Arrays.fill(slots, -1);
    }

    /** Heap the table's arrays hold for {@code capacity} actions (references counted as 8 bytes). */
    public static long bytes(int capacity) {
        return (long) capacity * (Long.BYTES + Integer.BYTES) + (long) slotCount(capacity) * Integer.BYTES;
    }

    private static int slotCount(int capacity) {
        return Integer.highestOneBit(capacity * 2 - 1) * 2;
    }

    public Action get(int index) {
        return actions[index];
    }

    /**
     * The index of action {@code index}'s rule in the rule set of the generation the table belongs to (-1 for no
     * rule), or {@link #UNRESOLVED}; the table is cleared with each generation, so an index never goes stale.
     */
    public int ruleIndex(int index) {
        return ruleIndexes[index];
    }

    public void ruleIndex(int index, int ruleIndex) {
        ruleIndexes[index] = ruleIndex;
    }

    public int size() {
        return size;
    }

    public boolean isFull() {
        return size == actions.length;
    }

    /** The index of the action with these fields, interning it if new; -1 when the table is full. */
    public int intern(int outPort, VlanOp vlanOp, int vlan, boolean rewriteMacs, long srcMac, long dstMac,
            boolean decrementTtl, int dropReason, int ruleId) {
        long h = outPort * 31L + vlanOp.ordinal();
        h = h * 31 + vlan;
        h = h * 31 + (rewriteMacs ? srcMac * 31 + dstMac : 0);
        h = h * 31 + (decrementTtl ? 1 : 0);
        h = h * 31 + dropReason;
        h = (h * 31 + ruleId) * 0x9E3779B97F4A7C15L;
        int slot = (int) (h >>> 40) & mask;
        while (slots[slot] >= 0) {
            Action a = actions[slots[slot]];
            if (a.sameAs(outPort, vlanOp, vlan, rewriteMacs, srcMac, dstMac, decrementTtl, dropReason, ruleId)) {
                return slots[slot];
            }
            slot = (slot + 1) & mask;
        }
        if (size == actions.length) {
            return -1;
        }
        actions[size] = new Action(outPort, vlanOp, vlan, rewriteMacs, rewriteMacs ? srcMac : 0,
                rewriteMacs ? dstMac : 0, decrementTtl, dropReason, ruleId);
        ruleIndexes[size] = UNRESOLVED;
        slots[slot] = size;
        return size++;
    }

    public void clear() {
        Arrays.fill(actions, 0, size, null);
        Arrays.fill(slots, -1);
        size = 0;
    }
}
