package io.edp.engine.slowpath;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Runs of packets under one action are added once, exactly, when the worker flushes after a burst. */
class RuleCountersTest {

    private final ActionTable actions = new ActionTable(16);
    private final RuleSet rules = new RuleSet(List.of(FirewallRule.of(1, "any", "any", 17, Verdict.ALLOW),
            FirewallRule.of(2, "any", "any", 6, Verdict.ALLOW)));
    private final int first = actions.intern(1, VlanOp.NONE, 0, false, 0, 0, false, 0, 1);
    private final int second = actions.intern(2, VlanOp.NONE, 0, false, 0, 0, false, 0, 2);
    private final int ruleless = actions.intern(3, VlanOp.NONE, 0, false, 0, 0, false, 0, 0);

    @Test
    void runsAndInterleavedActionsAddUpExactlyAtTheFlush() {
        RuleCounters counters = counting();
        int[] burst = {first, first, first, second, first, ruleless, second, second};
        for (int i = 0; i < burst.length; i++) {
            counters.count(burst[i], 100 + i);
        }
        assertThat(read(counters)).as("runs that ended are added; the last one, in progress, is not")
                .containsEntry(1, List.of(4L, 100L + 101 + 102 + 104, 0L)).containsEntry(2, List.of(1L, 103L, 0L));

        counters.flush();
        assertThat(read(counters)).containsEntry(1, List.of(4L, 100L + 101 + 102 + 104, 0L))
                .containsEntry(2, List.of(3L, 103L + 106 + 107, 0L));
        counters.flush();
        counters.count(first, 50);
        counters.flush();
        assertThat(read(counters)).as("a flush adds each packet once")
                .containsEntry(1, List.of(5L, 100L + 101 + 102 + 104 + 50, 0L));
    }

    @Test
    void aRunCountsForTheRuleOfTheActionItWasCountedUnderThoughTheTableIsClearedBeforeTheFlush() {
        RuleCounters counters = counting();
        counters.count(second, 64);
        counters.count(second, 64);
        counters.flush(); // as the miss path does before it clears a full table
        counters.count(first, 100);
        actions.clear(); // the miss path's clear in the middle of a burst
        int reused = actions.intern(9, VlanOp.NONE, 0, false, 0, 0, false, 0, 2);
        counters.flush();
        counters.count(reused, 10);
        counters.flush();
        assertThat(reused).as("an action interned after the clear takes a cleared index").isEqualTo(first);
        assertThat(read(counters)).containsEntry(1, List.of(1L, 100L, 0L)).containsEntry(2, List.of(3L, 138L, 0L));
    }

    @Test
    void aNewRuleSetTakesOverWhatWasCountedBeforeIt() {
        RuleCounters counters = counting();
        counters.count(second, 64);
        counters.count(second, 64);
        counters.adopt(new RuleSet(List.of(FirewallRule.of(2, "any", "any", 6, Verdict.ALLOW))));
        assertThat(read(counters)).containsExactly(Map.entry(2, List.of(2L, 128L, 0L)));
    }

    /** Counters of a worker with {@link #actions}, running {@link #rules}. */
    private RuleCounters counting() {
        RuleCounters counters = new RuleCounters(actions, null);
        counters.adopt(rules);
        return counters;
    }

    private static Map<Integer, List<Long>> read(RuleCounters counters) {
        Map<Integer, long[]> sums = new TreeMap<>();
        counters.addTo(sums);
        Map<Integer, List<Long>> read = new TreeMap<>();
        sums.forEach((id, c) -> read.put(id, List.of(c[0], c[1], c[2])));
        return read;
    }
}
