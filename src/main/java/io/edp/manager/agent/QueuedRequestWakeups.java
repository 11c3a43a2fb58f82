package io.edp.manager.agent;

import io.edp.manager.database.DatabaseNotifications;
import io.edp.manager.database.NotificationChannel;
import io.edp.manager.host.Placement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Wakes the long poll of a host's agent, on whichever replica holds it, when a request to its engine is queued
 * (through any replica: {@link NotificationChannel#ENGINE_REQUEST}); the answer hands the request over. After the
 * listening connection came back, the hosts with requests still queued are woken.
 */
@Component
class QueuedRequestWakeups implements DatabaseNotifications.Subscriber {

    private static final Logger log = LoggerFactory.getLogger(QueuedRequestWakeups.class);

    private final DesiredStateWatches watches;
    private final EngineRequests requests;

    QueuedRequestWakeups(DesiredStateWatches watches, EngineRequests requests) {
        this.watches = watches;
        this.requests = requests;
    }

    @Override
    public NotificationChannel channel() {
        return NotificationChannel.ENGINE_REQUEST;
    }

    @Override
    public void notified(String payload) {
        var notice = EngineRequests.Notice.parse(payload);
        if (notice.placement() == Placement.AGENT) {
            watches.wake(notice.hostId());
        }
    }

    @Override
    public void missed() {
        try {
            requests.hostsWithQueued(Placement.AGENT).forEach(watches::wake);
        } catch (RuntimeException e) {
            log.debug("Hosts with queued engine requests not re-read: {}", e.toString());
        }
    }
}
