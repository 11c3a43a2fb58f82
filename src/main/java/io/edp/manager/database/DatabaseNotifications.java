package io.edp.manager.database;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The after-commit events of every replica at once: one pooled connection LISTENs on the channels of every
 * {@link Subscriber} bean and hands each notification to the subscribers of its channel. PostgreSQL delivers a
 * NOTIFY only once its transaction has committed, and to every listening session, so a change committed through
 * any replica reaches the subscribers of all. If the connection breaks, every subscriber is told so at once; listening
 * resumes after a second and every subscriber is told that it may have missed notifications.
 */
@Component
public class DatabaseNotifications implements SmartLifecycle {

    /** Reacts to the notifications of one channel. Called on the listening thread: return quickly. */
    public interface Subscriber {

        NotificationChannel channel();

        /** A notification on the channel, with its payload ({@code ""} when it has none). */
        void notified(String payload);

        /** Listening (re)started: notifications committed meanwhile were missed, so re-read what matters. */
        void missed();

        /** The listening connection broke: until {@link #missed()}, notifications are not heard. */
        default void lost() {
        }
    }

    private static final Logger log = LoggerFactory.getLogger(DatabaseNotifications.class);
    private static final int POLL_MILLIS = 500;

    private final DataSource dataSource;
    private final List<Subscriber> subscribers;
    private volatile boolean running;
    private Thread listener;

    DatabaseNotifications(DataSource dataSource, List<Subscriber> subscribers) {
        this.dataSource = dataSource;
        this.subscribers = List.copyOf(subscribers);
    }

    @Override
    public synchronized void start() {
        running = true;
        listener = Thread.ofPlatform().name("edp-notifications").daemon(true).start(this::listen);
    }

    private void listen() {
        Set<NotificationChannel> channels = subscribers.stream().map(Subscriber::channel)
                .collect(Collectors.toSet());
        while (running) {
            try (var connection = dataSource.getConnection(); var statement = connection.createStatement()) {
                for (NotificationChannel channel : channels) {
                    statement.execute("LISTEN " + channel.sqlName());
                }
                var postgres = connection.unwrap(PGConnection.class);
                subscribers.forEach(Subscriber::missed);
                while (running) {
                    var notifications = postgres.getNotifications(POLL_MILLIS);
                    if (notifications == null) {
                        continue;
                    }
                    for (var notification : notifications) {
                        for (Subscriber subscriber : subscribers) {
                            if (subscriber.channel().sqlName().equals(notification.getName())) {
                                deliver(subscriber, notification.getParameter());
                            }
                        }
                    }
                }
            } catch (SQLException e) {
                if (running) {
                    subscribers.forEach(DatabaseNotifications::lost);
                    log.warn("Listening for database notifications failed, retrying in 1 s: {}", e.toString());
                    pause();
                }
            }
        }
    }

    /** One subscriber's failure must not stop the others' notifications, nor the listening. */
    private static void deliver(Subscriber subscriber, String payload) {
        try {
            subscriber.notified(payload);
        } catch (RuntimeException e) {
            log.warn("{} failed on notification '{}' of {}: {}", subscriber.getClass().getSimpleName(), payload,
                    subscriber.channel(), e.toString());
        }
    }

    private static void lost(Subscriber subscriber) {
        try {
            subscriber.lost();
        } catch (RuntimeException e) {
            log.warn("{} failed on losing {}: {}", subscriber.getClass().getSimpleName(), subscriber.channel(),
                    e.toString());
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
