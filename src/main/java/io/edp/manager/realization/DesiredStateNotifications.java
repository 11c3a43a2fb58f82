package io.edp.manager.realization;

import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Wakes the {@link Reconciler} right after a change commits. The triggers that bump generations also NOTIFY
 * {@code edp_desired_state}; PostgreSQL delivers a notification only once its transaction has committed, and to
 * every listening replica, so this is the after-commit event of every writer at once. One pooled connection is
 * held for listening; if it breaks, the reconciler's periodic sweep covers the gap until it is back.
 */
@Component
class DesiredStateNotifications implements SmartLifecycle {

    static final String CHANNEL = "edp_desired_state";
    private static final Logger log = LoggerFactory.getLogger(DesiredStateNotifications.class);
    private static final int POLL_MILLIS = 500;

    private final DataSource dataSource;
    private final Reconciler reconciler;
    private volatile boolean running;
    private Thread listener;

    DesiredStateNotifications(DataSource dataSource, Reconciler reconciler) {
        this.dataSource = dataSource;
        this.reconciler = reconciler;
    }

    @Override
    public synchronized void start() {
        running = true;
        listener = Thread.ofPlatform().name("edp-notifications").daemon(true).start(this::listen);
    }

    private void listen() {
        while (running) {
            try (var connection = dataSource.getConnection(); var statement = connection.createStatement()) {
                statement.execute("LISTEN " + CHANNEL);
                var postgres = connection.unwrap(PGConnection.class);
                reconciler.wake(); // changes may have committed while we were not listening
                while (running) {
                    var notifications = postgres.getNotifications(POLL_MILLIS);
                    if (notifications != null && notifications.length > 0) {
                        reconciler.wake();
                    }
                }
            } catch (SQLException e) {
                if (running) {
                    log.warn("Listening for desired-state changes failed, retrying in 1 s: {}", e.toString());
                    pause();
                }
            }
        }
    }

    private static void pause() {
        try {
            TimeUnit.SECONDS.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (listener != null) {
            try {
                listener.join(POLL_MILLIS * 4L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            listener = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
