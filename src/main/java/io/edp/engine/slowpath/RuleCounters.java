package io.edp.engine.slowpath;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Map;

/**
 * One worker's firewall-rule counters: packets, bytes and connections started per rule of the generation it runs,
 * written by that worker alone with plain increments (no atomics, nothing shared with another worker) and read by
 * any thread through opaque loads, as {@link io.edp.engine.metrics.Counters}.
 * <p>A packet counts for the rule its action names — the rule that matched it, or the rule of the connection that
 * let it through — in one place after the fast path or the miss path decided, so a cache hit counts exactly as
 * the slow path would. The action's rule index is looked up once per interned action ({@link ActionTable#ruleIndex}).
 * <p>Counters belong to the rule's id: when a generation with other rules is adopted, the counts of the ids it
 * keeps move to their new indices and those of the ids it drops are gone (a rule added again starts from zero).
 */
public final class RuleCounters {

    public static final int PACKETS = 0;
    public static final int BYTES = 1;
    public static final int CONNECTIONS = 2;
    public static final int COUNTER_COUNT = 3;

    private static final VarHandle ELEMENT = MethodHandles.arrayElementVarHandle(long[].class);

    /** The counters of one rule set: {@code values[index * 3 + counter]}, the rule ids beside them. */
    private record Table(RuleSet rules, long[] values) {
    }

    private final ActionTable actions;
    private volatile Table published;
    /** The worker's own view of {@link #published}: read on every packet without a volatile load. */
    private RuleSet rules;
    private long[] values;
    /** Counts the first rule set takes over by id, then null. */
    private Map<Integer, long[]> carried;
    /**
     * Packets counted under action {@code runAction} (whose rule's index is {@code runRule}, resolved when the run
     * began) since the last {@link #flush}, not yet added: a run of packets under one action (one flow's, or those of
     * many flows one rule let out of one port) adds once.
     */
    private int runAction = -1;
    private int runRule = -1;
    private long runPackets;
    private long runBytes;

    /**
     * Counters for a worker interning its actions in {@code actions}, starting from {@code carried} (rule id →
     * packets, bytes, connections; from an engine this one replaces), which its first rule set takes over.
     */
    public RuleCounters(ActionTable actions, Map<Integer, long[]> carried) {
        this.actions = actions;
        RuleSet none = new RuleSet(List.of());
        this.rules = none;
        this.values = new long[0];
        this.carried = carried;
        this.published = new Table(none, values);
    }

    /** Worker thread, when it adopts a generation: counters follow the rules by id (see the class comment). */
    public void adopt(RuleSet next) {
        flush();
        if (next == rules) {
            return;
        }
        long[] moved = new long[next.size() * COUNTER_COUNT];
        for (int i = 0; i < next.size(); i++) {
            int id = next.id(i);
            if (next.indexOf(id) != i) {
                continue; // a duplicated id counts on its first rule, as indexOf finds it
            }
            int was = rules.indexOf(id);
            long[] from = carried == null ? null : carried.get(id);
            for (int c = 0; c < COUNTER_COUNT; c++) {
                moved[i * COUNTER_COUNT + c] = was >= 0 ? values[was * COUNTER_COUNT + c]
                        : from != null ? from[c] : 0;
            }
        }
        carried = null;
        rules = next;
        values = moved;
        published = new Table(next, moved);
    }

    /**
     * Counts a packet of {@code length} bytes under action {@code actionIndex}'s rule, if it has one; readers see it
     * after the next {@link #flush}.
     */
    public void count(int actionIndex, int length) {
        if (actionIndex != runAction) {
            flush();
            runAction = actionIndex;
            runRule = ruleIndexOf(actionIndex);
        }
        runPackets++;
        runBytes += length;
    }

    /** The index of action {@code actionIndex}'s rule in the rule set, or -1; looked up once per interned action. */
    private int ruleIndexOf(int actionIndex) {
        int rule = actions.ruleIndex(actionIndex);
        if (rule == ActionTable.UNRESOLVED) {
            rule = rules.indexOf(actions.get(actionIndex).ruleId());
            actions.ruleIndex(actionIndex, rule);
        }
        return rule;
    }

    /**
     * Adds the packets counted since the last flush to their rule. The worker flushes after every burst, so readers
     * lag it by a burst at most, and before it clears its action table: the miss path clears a full table in the
     * middle of a burst, and an action interned after the clear may take the run's index.
     */
    public void flush() {
        if (runPackets > 0 && runRule >= 0) {
            values[runRule * COUNTER_COUNT + PACKETS] += runPackets;
            values[runRule * COUNTER_COUNT + BYTES] += runBytes;
        }
        runAction = -1;
        runPackets = 0;
        runBytes = 0;
    }

    /** Counts a connection the rule {@code ruleId} allowed to start (or start again). Slow path. */
    public void connectionStarted(int ruleId) {
        int rule = rules.indexOf(ruleId);
        if (rule >= 0) {
            values[rule * COUNTER_COUNT + CONNECTIONS]++;
        }
    }

    /**
     * Any thread: adds this worker's counters to {@code into} (rule id → packets, bytes, connections), for every
     * rule of the generation the worker last adopted.
     */
    public void addTo(Map<Integer, long[]> into) {
        Table t = published;
        for (int i = 0; i < t.rules().size(); i++) {
            int id = t.rules().id(i);
            if (t.rules().indexOf(id) != i) {
                continue;
            }
            long[] sum = into.computeIfAbsent(id, k -> new long[COUNTER_COUNT]);
            for (int c = 0; c < COUNTER_COUNT; c++) {
                sum[c] += (long) ELEMENT.getOpaque(t.values(), i * COUNTER_COUNT + c);
            }
        }
    }
}
