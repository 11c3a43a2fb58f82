package io.edp.manager.agent;

import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.edp.agent.AgentAnswer;
import io.edp.manager.database.DatabaseNotifications;
import io.edp.manager.database.NotificationChannel;
import io.edp.manager.engines.HostEngines;
import io.edp.manager.host.Placement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

/**
 * On the replica running the embedded engines: executes the requests that other replicas queued for hosts placed
 * EMBEDDED ({@link RelayedEngine}) against the engines of this process, exactly as an agent executes its host's
 * ({@link io.edp.agent.EngineRequest#answer}). Woken by the queueing's notification, it takes and answers them on a
 * small executor, off the listening thread; after the listening connection came back, it takes what is queued.
 */
@Component
@ConditionalOnBooleanProperty(name = "edp.engines.embedded", matchIfMissing = true)
class EmbeddedEngineRequests implements DatabaseNotifications.Subscriber, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedEngineRequests.class);
    private static final int THREADS = 4;

    private final EngineRequests requests;
    private final HostEngines engines;
    private final ExecutorService executor = Executors.newFixedThreadPool(THREADS,
            Thread.ofPlatform().name("edp-engine-requests-", 0).daemon(true).factory());

    EmbeddedEngineRequests(EngineRequests requests, HostEngines engines) {
        this.requests = requests;
        this.engines = engines;
    }

    @Override
    public NotificationChannel channel() {
        return NotificationChannel.ENGINE_REQUEST;
    }

    @Override
    public void notified(String payload) {
        var notice = EngineRequests.Notice.parse(payload);
        if (notice.placement() == Placement.EMBEDDED) { // an agent's are its own
            executor.execute(() -> serve(notice.hostId()));
        }
    }

    @Override
    public void missed() {
        executor.execute(() -> {
            try {
                requests.hostsWithQueued(Placement.EMBEDDED).forEach(this::serve);
            } catch (RuntimeException e) {
                log.debug("Hosts with queued engine requests not re-read: {}", e.toString());
            }
        });
    }

    private void serve(UUID hostId) {
        try {
            for (var queued : requests.take(hostId, Placement.EMBEDDED)) {
                var answer = engines.engine(hostId).map(queued.request()::answer)
                        .orElseGet(() -> AgentAnswer.refused(404, null, "Host " + hostId + " has no running engine "
                                + "(no NICs yet, or its first push has not happened; see its realization)"));
                requests.answer(hostId, queued.id(), answer);
            }
        } catch (RuntimeException e) {
            log.warn("Engine requests of host {} not answered: {}", hostId, e.toString());
        }
    }

    @Override
    public void destroy() {
        executor.shutdownNow();
    }
}
