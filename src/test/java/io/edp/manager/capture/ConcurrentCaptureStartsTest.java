package io.edp.manager.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.edp.engine.capture.CaptureFilter;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.CaptureStats;
import io.edp.manager.ManagerTest;
import io.edp.manager.api.ConflictException;
import io.edp.manager.engines.CaptureUploader;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Captures started at once on one host placed AGENT, as by several manager replicas (each start its own
 * transactions on its own connection): exactly edp.capture.max-running (4) of them start, every other one is the
 * documented 409, and the table holds exactly four running ones. Several rounds, each on a fresh host, so that a
 * check that is not serialized in the database lets a fifth one through in at least one of them. The agent is a
 * stand-in that starts every capture.
 */
class ConcurrentCaptureStartsTest extends ManagerTest {

    private static final int STARTS = 16;
    private static final int ROUNDS = 5;
    private static final CaptureStats RUNNING = new CaptureStats(CaptureStats.State.RUNNING, null, null, 0, 0, 0, 24,
            null);

    @Autowired
    UploadedCaptures uploaded;

    @Autowired
    CaptureProperties properties;

    @Autowired
    JdbcTemplate jdbc;

    private final CaptureUploader agent = (CaptureUploader) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {CaptureUploader.class}, (proxy, method, args) -> switch (method.getName()) {
                case "startCapture" -> RUNNING;
                default -> throw new UnsupportedOperationException(method.getName());
            });

    @Test
    void capturesStartedAtOnceOnAnAgentHostStartNoMoreThanMaxRunning() throws Exception {
        assertThat(properties.maxRunning()).isEqualTo(4);
        try (var threads = Executors.newFixedThreadPool(STARTS)) {
            for (int round = 0; round < ROUNDS; round++) {
                var hostId = createHost("esx-concurrent-captures-" + round);
                var barrier = new CyclicBarrier(STARTS);
                List<Future<Boolean>> starts = new ArrayList<>();
                for (int i = 0; i < STARTS; i++) {
                    starts.add(threads.submit(() -> {
                        barrier.await();
                        return start(hostId);
                    }));
                }
                int started = 0;
                for (var start : starts) {
                    started += start.get() ? 1 : 0;
                }
                assertThat(started).as("round %d: captures started of %d at once", round, STARTS).isEqualTo(4);
                assertThat(jdbc.queryForObject("SELECT count(*) FROM agent_capture WHERE host_id = ?", Long.class,
                        hostId)).as("round %d: rows", round).isEqualTo(4);
            }
        }
    }

    /** Whether the capture started; false when it was refused as one too many, as the API's 409. */
    private boolean start(UUID hostId) {
        var started = new StartedCapture(UUID.randomUUID(), hostId, "vmnic0", CaptureRequest.Direction.BOTH,
                new CaptureRequest.Filter(List.of(), List.of(), null), Instant.now(),
                CaptureSpec.of(0, CaptureSpec.Direction.BOTH, CaptureFilter.ALL, 10, Duration.ofMinutes(10)));
        try {
            uploaded.start(started, agent);
            return true;
        } catch (ConflictException e) {
            assertThat(e).hasMessageContaining("has 4 captures running");
            return false;
        }
    }
}
