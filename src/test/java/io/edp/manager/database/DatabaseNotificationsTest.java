package io.edp.manager.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.edp.manager.LiveApi;
import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The shared listener on the suite's real PostgreSQL: a subscriber hears its own channel's notifications, with
 * their payloads, once the sending transaction commits (never a rolled-back one's); it is told at the start that it
 * may have missed some; and a subscriber that throws neither silences the others nor stops the listening.
 */
class DatabaseNotificationsTest extends ManagerTest {

    private static final Duration DELIVERED = Duration.ofSeconds(10);

    @Autowired
    private DataSource dataSource;

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private TransactionTemplate tx;

    /** Records what it is told. */
    private static class Recording implements DatabaseNotifications.Subscriber {

        private final NotificationChannel channel;
        final Queue<String> payloads = new ConcurrentLinkedQueue<>();
        final AtomicInteger missed = new AtomicInteger();

        Recording(NotificationChannel channel) {
            this.channel = channel;
        }

        @Override
        public NotificationChannel channel() {
            return channel;
        }

        @Override
        public void notified(String payload) {
            payloads.add(payload);
        }

        @Override
        public void missed() {
            missed.incrementAndGet();
        }
    }

    @Test
    void subscribersHearTheirChannelAfterCommitAndAFailingOneSilencesNoOther() throws Exception {
        var failing = new Recording(NotificationChannel.DESIRED_STATE) {
            @Override
            public void notified(String payload) {
                throw new IllegalStateException("a subscriber's bug");
            }
        };
        var first = new Recording(NotificationChannel.DESIRED_STATE);
        var second = new Recording(NotificationChannel.REALIZATION);
        var notifications = new DatabaseNotifications(dataSource, List.of(failing, first, second));
        notifications.start();
        try {
            LiveApi.await("every subscriber told it may have missed notifications", DELIVERED,
                    () -> List.of(failing.missed.get(), first.missed.get(), second.missed.get()),
                    counts -> counts.stream().allMatch(n -> n == 1));

            tx.executeWithoutResult(status -> {
                jdbc.execute("SELECT pg_notify('edp_desired_state', 'rolled back')");
                status.setRollbackOnly();
            });
            tx.executeWithoutResult(status -> jdbc.execute("SELECT pg_notify('edp_desired_state', 'one')"));
            String hostId = UUID.randomUUID().toString(); // a realization's payload: no host of the suite's
            jdbc.execute("SELECT pg_notify('edp_realization', '" + hostId + "')");
            jdbc.execute("SELECT pg_notify('edp_desired_state', 'three')");

            // the suite's own writes notify this channel too, without a payload
            LiveApi.await("the desired-state notifications", DELIVERED,
                    () -> first.payloads.stream().filter(payload -> !payload.isEmpty()).toList(),
                    payloads -> payloads.size() >= 2);
            LiveApi.await("the realization notification", DELIVERED, () -> List.copyOf(second.payloads),
                    payloads -> !payloads.isEmpty());
            assertThat(first.payloads).filteredOn(payload -> !payload.isEmpty()).containsExactly("one", "three");
            assertThat(second.payloads).containsExactly(hostId);
        } finally {
            notifications.stop();
        }
        assertThat(notifications.isRunning()).isFalse();
    }
}
