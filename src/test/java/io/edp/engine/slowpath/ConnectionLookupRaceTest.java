package io.edp.engine.slowpath;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.FlowKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A lookup that only keeps its connection alive reads the stripe without its lock: racing the removal of its
 * connection and the reuse of the slot by another, it must answer with its own connection's rule or with no
 * connection, never with what a stripe halfway through a change showed.
 */
class ConnectionLookupRaceTest {

    private static final long A = (long) 0x0A000001 << 32;
    private static final long B = (long) 0x0A000101 << 32;
    /** Over the smallest table (64 stripes of 4 slots), so connections share probe chains and take over slots. */
    private static final int CONNECTIONS = 96;
    private static final int LOOKUPS = 3_000_000;

    @Test
    void aLookupRacingRemovalAndReuseAnswersWithItsOwnConnectionOrNone() throws Exception {
        ConnectionTable table = new ConnectionTable(256);
        RuleSet rules = new RuleSet(List.of());
        AtomicBoolean stop = new AtomicBoolean();
        try (ExecutorService threads = Executors.newFixedThreadPool(3)) {
            Future<?> churn = threads.submit(() -> churn(table, rules, stop));
            Future<long[]> first = threads.submit(lookups(table, rules, 1));
            Future<long[]> second = threads.submit(lookups(table, rules, 2));
            long[] a = first.get();
            long[] b = second.get();
            stop.set(true);
            churn.get();

            assertThat(a[0] + b[0]).as("lookups with another connection's rule").isZero();
            assertThat(a[1] + b[1]).as("lookups that found their connection").isPositive();
            assertThat(a[2] + b[2]).as("lookups that found none").isPositive();
        }
    }

    /** Inserts every connection (rule id: its number + 1) in a new order each time, then removes them all. */
    private static void churn(ConnectionTable table, RuleSet rules, AtomicBoolean stop) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            order.add(i);
        }
        Random random = new Random(7);
        while (!stop.get()) {
            Collections.shuffle(order, random);
            for (int i : order) {
                table.insert(A, 0, B, 0, l4(i), 0, 0, 1, i + 1, 0, -1, 64, rules, null);
            }
            table.remove(ConnectionFilter.ALL, 0, rules, null);
        }
    }

    /** Looks the connections up round robin; returns {wrong rule, found, not found}. */
    private static Callable<long[]> lookups(ConnectionTable table, RuleSet rules, int seed) {
        return () -> {
            long[] outcomes = new long[3];
            Random random = new Random(seed);
            for (int n = 0; n < LOOKUPS; n++) {
                int i = random.nextInt(CONNECTIONS);
                long found = table.find(A, 0, B, 0, l4(i), 0, 0, rules, 1, 64, null);
                if (found == ConnectionTable.NOT_FOUND) {
                    outcomes[2]++;
                } else {
                    outcomes[(int) (found >>> 32) == i + 1 ? 1 : 0]++;
                }
            }
            return outcomes;
        };
    }

    private static long l4(int connection) {
        return FlowKey.l4Word(10_000 + connection, 4000, FlowKey.PROTO_UDP, 4, 1);
    }
}
