package io.edp.manager.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.ByteArrayInputStream;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.edp.engine.capture.CaptureFilter;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.CaptureStats;
import io.edp.manager.ManagerTest;
import io.edp.manager.api.ConflictException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.engines.CaptureUploader;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An agent host's captures in the database are kept as an embedded host's: ended ones go after the retention (1 h
 * here), those whose agent never reported their end once their time limit is that far behind, running ones stay;
 * a host runs at most edp.capture.max-running (4) at once. The agent is a stand-in that starts every capture and
 * says each is running.
 */
class UploadedCapturesTest extends ManagerTest {

    private static final CaptureStats RUNNING = new CaptureStats(CaptureStats.State.RUNNING, null, null, 0, 0, 0, 24,
            null);

    @Autowired
    UploadedCaptures uploaded;

    @Autowired
    JdbcTemplate jdbc;

    private final CaptureUploader agent = (CaptureUploader) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {CaptureUploader.class}, (proxy, method, args) -> switch (method.getName()) {
                case "startCapture" -> RUNNING;
                case "capture" -> Optional.of(RUNNING);
                default -> throw new UnsupportedOperationException(method.getName());
            });

    @Test
    void endedAndUnreportedCapturesGoAfterTheRetentionRunningOnesStayAndAHostRunsAtMostFour() throws Exception {
        var hostId = createHost("esx-agent-captures");
        var now = Instant.now();
        var ended = start(hostId, now.minus(Duration.ofHours(3)), Duration.ofMinutes(1));
        uploaded.storeStats(hostId, ended, new CaptureStats(CaptureStats.State.ENDED,
                CaptureStats.EndReason.STOPPED, null, 0, 0, 0, 24, now.minus(Duration.ofHours(2))));
        var endedLately = start(hostId, now.minus(Duration.ofHours(3)), Duration.ofHours(3));
        uploaded.storeStats(hostId, endedLately, new CaptureStats(CaptureStats.State.ENDED,
                CaptureStats.EndReason.TIME_LIMIT, null, 0, 0, 0, 24, now.minus(Duration.ofMinutes(1))));
        var unreported = start(hostId, now.minus(Duration.ofHours(3)), Duration.ofMinutes(1));
        var running = start(hostId, now, Duration.ofMinutes(10));

        uploaded.cleanUp(now.minus(Duration.ofHours(1)));

        assertThat(jdbc.queryForList("SELECT id FROM agent_capture", UUID.class)).as("%s and %s gone", ended,
                unreported).containsExactlyInAnyOrder(endedLately, running);
        assertThat(uploaded.list(hostId, agent)).extracting(CaptureResponse::id, CaptureResponse::state)
                .containsExactly(tuple(endedLately, CaptureStats.State.ENDED),
                        tuple(running, CaptureStats.State.RUNNING));

        for (int i = 0; i < 3; i++) {
            start(hostId, now, Duration.ofMinutes(10));
        }
        assertThatThrownBy(() -> start(hostId, now, Duration.ofMinutes(10))).isInstanceOf(ConflictException.class)
                .hasMessageContaining("has 4 captures running");
    }

    /**
     * A capture whose agent never reports its end is not RUNNING forever: edp.capture.unreported-after (30 s) past
     * its time limit it shows ENDED, UNREPORTED (ended by its limit at the latest), without asking its agent (the
     * stand-in would still say RUNNING), its file a 404 saying it never arrived, and it is removed without its
     * agent. What its agent uploads later replaces that state. Within those 30 s the agent is still asked.
     */
    @Test
    void aCaptureWhoseAgentNeverReportsItsEndEndsUnreportedAndALateReportReplacesThat() throws Exception {
        var hostId = createHost("esx-unreported-captures");
        var now = Instant.now();
        var justOver = start(hostId, now.minus(Duration.ofSeconds(70)), Duration.ofMinutes(1));
        var silent = start(hostId, now.minus(Duration.ofMinutes(10)), Duration.ofMinutes(1));
        var late = start(hostId, now.minus(Duration.ofMinutes(10)), Duration.ofMinutes(2));

        assertThat(uploaded.get(hostId, justOver, agent).state()).as("asked: 10 s past its limit")
                .isEqualTo(CaptureStats.State.RUNNING);
        var shown = uploaded.get(hostId, silent, agent);
        assertThat(shown.state()).isEqualTo(CaptureStats.State.ENDED);
        assertThat(shown.endReason()).isEqualTo(CaptureStats.EndReason.UNREPORTED);
        assertThat(shown.failure()).contains("has not reported its end");
        assertThat(shown.endedAt()).as("its time limit").isEqualTo(shown.startedAt().plus(Duration.ofMinutes(1)));
        assertThat(shown.captured()).isZero();
        assertThat(uploaded.list(hostId, agent)).extracting(CaptureResponse::id, CaptureResponse::endReason)
                .containsExactly(tuple(silent, CaptureStats.EndReason.UNREPORTED),
                        tuple(late, CaptureStats.EndReason.UNREPORTED), tuple(justOver, null));
        assertThatThrownBy(() -> uploaded.pcap(hostId, silent, agent)).isInstanceOf(NotFoundException.class)
                .hasMessageContaining("its agent has not uploaded it");
        assertThat(uploaded.delete(hostId, silent, agent)).as("removed, its agent not asked").isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM agent_capture WHERE id = ?", Long.class, silent))
                .isZero();

        var file = new byte[24];
        uploaded.storeFile(hostId, late, CaptureController.PCAP, new ByteArrayInputStream(file));
        uploaded.storeStats(hostId, late, new CaptureStats(CaptureStats.State.ENDED,
                CaptureStats.EndReason.TIME_LIMIT, null, 7, 0, 420, 24, now.minus(Duration.ofMinutes(8))));
        var reported = uploaded.get(hostId, late, agent);
        assertThat(reported.endReason()).isEqualTo(CaptureStats.EndReason.TIME_LIMIT);
        assertThat(reported.captured()).isEqualTo(7);
        assertThat(uploaded.pcap(hostId, late, agent).content().readAllBytes()).isEqualTo(file);
    }

    private UUID start(UUID hostId, Instant startedAt, Duration limit) {
        var started = new StartedCapture(UUID.randomUUID(), hostId, "vmnic0", CaptureRequest.Direction.BOTH,
                new CaptureRequest.Filter(List.of(), List.of(), null), startedAt,
                CaptureSpec.of(0, CaptureSpec.Direction.BOTH, CaptureFilter.ALL, 10, limit));
        uploaded.start(started, agent);
        return started.id();
    }
}
