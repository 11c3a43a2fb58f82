package io.edp.manager.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;

/**
 * A script cleaning up an inventory in parallel: hosts with NICs, a VM and a running engine, deleted at once from
 * several threads. Every DELETE answers 204; none may meet another in a deadlock (a 500, or a 503 to retry). And a
 * request that does lose a deadlock answers 503 with Retry-After, not 500.
 */
class ConcurrentHostDeleteTest extends ManagerTest {

    @Autowired
    private DataSource dataSource;

    private static final int ROUNDS = 5;
    private static final int HOSTS = 8;

    @Test
    void concurrentDeletesOfDifferentHostsAllAnswer204() throws Exception {
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        try (var threads = Executors.newFixedThreadPool(HOSTS)) {
            for (int round = 0; round < ROUNDS; round++) {
                var hosts = new ArrayList<String>();
                for (int i = 0; i < HOSTS; i++) {
                    hosts.add(hostWithAVm("esx-" + round + "-" + i));
                }
                var start = new CountDownLatch(1);
                List<Future<Integer>> deletes = new ArrayList<>();
                for (var host : hosts) {
                    deletes.add(threads.submit(() -> {
                        start.await();
                        return mvc.perform(delete("/api/v1/hosts/" + host).with(operator()))
                                .andReturn().getResponse().getStatus();
                    }));
                }
                start.countDown();
                for (var delete : deletes) {
                    statuses.computeIfAbsent(delete.get(), status -> new AtomicInteger()).incrementAndGet();
                }
            }
        }
        var counted = new TreeMap<Integer, Integer>();
        statuses.forEach((status, count) -> counted.put(status, count.get()));
        System.out.println("concurrent host deletes, " + ROUNDS + " rounds of " + HOSTS + ": statuses " + counted);
        assertThat(counted).containsExactly(Map.entry(204, ROUNDS * HOSTS));
        assertThat(rows("host")).isZero();
    }

    /**
     * A real deadlock: another transaction locks the host's realization row first, as the reconciler's claim does,
     * then the host row, while the DELETE holds the host row and waits for the realization row. That transaction
     * waits longer before PostgreSQL checks for the cycle, so the DELETE is the one rolled back.
     */
    @Test
    void aDeleteThatLosesADeadlockAnswers503WithRetryAfter() throws Exception {
        var host = createHost("esx-victim");
        try (var other = dataSource.getConnection(); var threads = Executors.newSingleThreadExecutor()) {
            other.setAutoCommit(false);
            try (var statement = other.createStatement()) {
                statement.execute("SET LOCAL deadlock_timeout = '60s'");
                statement.execute("SELECT 1 FROM host_realization WHERE host_id = '" + host + "' FOR UPDATE");
                var deleted = threads.submit(() -> mvc.perform(delete("/api/v1/hosts/" + host).with(operator()))
                        .andReturn().getResponse());
                await("the DELETE to wait for the realization row", this::deletesWaiting, waits -> waits > 0);
                statement.execute("SELECT 1 FROM host WHERE id = '" + host + "' FOR KEY SHARE"); // closes the cycle
                other.rollback();

                var response = deleted.get();
                assertThat(response.getStatus()).isEqualTo(503);
                assertThat(response.getHeader(HttpHeaders.RETRY_AFTER)).isNotBlank();
                assertThat(response.getContentAsString()).contains("40P01", "send it again");
            }
        }
        assertThat(rows("host")).as("the DELETE rolled back").isOne();
    }

    /** Sessions of this database whose DELETE of a host waits for a lock (the reconciler's waits do not count). */
    private long deletesWaiting() {
        return rows("pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' "
                + "AND query ILIKE 'delete from host %'");
    }
}
