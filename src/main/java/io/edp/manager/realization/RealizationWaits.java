package io.edp.manager.realization;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.edp.manager.api.NotFoundException;
import io.edp.manager.database.DatabaseNotifications;
import io.edp.manager.database.NotificationChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * Long-polls on a host's realization: a waiter is answered as soon as the generation it names is realized, or the push
 * failed, or its wait runs out (then with the status as it is). A trigger on host_realization (migration V6_2) NOTIFYs
 * {@code edp_realization} with the host's id when its realization moves; PostgreSQL delivers it after the commit to
 * every replica, so a wait held on one replica is answered by a push, or an agent's report, recorded through any other.
 * No request thread is held while waiting.
 */
@Component
class RealizationWaits implements DatabaseNotifications.Subscriber {

    private static final Logger log = LoggerFactory.getLogger(RealizationWaits.class);

    private record Waiter(long generation, DeferredResult<RealizationStatus> result) {
    }

    private final RealizationRepository realizations;
    private final Map<UUID, Set<Waiter>> waiters = new ConcurrentHashMap<>();

    RealizationWaits(RealizationRepository realizations) {
        this.realizations = realizations;
    }

    /** The status once {@code generation} is realized or failed, or after {@code wait} whatever it is. */
    DeferredResult<RealizationStatus> await(UUID hostId, long generation, Duration wait) {
        var result = new DeferredResult<RealizationStatus>(wait.toMillis());
        var waiter = new Waiter(generation, result);
        result.onTimeout(() -> {
            forget(hostId, waiter);
            try {
                status(hostId).ifPresentOrElse(result::setResult,
                        () -> result.setErrorResult(new NotFoundException("No host with id " + hostId)));
            } catch (RuntimeException e) {
                result.setErrorResult(e);
            }
        });
        result.onCompletion(() -> forget(hostId, waiter));
        waiters.computeIfAbsent(hostId, id -> ConcurrentHashMap.newKeySet()).add(waiter);
        answer(hostId, Set.of(waiter)); // it may be realized already
        return result;
    }

    @Override
    public NotificationChannel channel() {
        return NotificationChannel.REALIZATION;
    }

    /** The realization of the host whose id is {@code payload} moved. */
    @Override
    public void notified(String payload) {
        changed(UUID.fromString(payload));
    }

    /** Notifications were missed (the listener reconnected): every waited-on host may have moved. */
    @Override
    public void missed() {
        waiters.keySet().forEach(this::changed);
    }

    /**
     * The host's realization may have moved: answers its waiters whose wait is over. Never throws (a database
     * away now leaves them to the listener's reconnection or their timeout).
     */
    private void changed(UUID hostId) {
        Set<Waiter> waiting = waiters.get(hostId);
        if (waiting == null || waiting.isEmpty()) {
            return;
        }
        try {
            answer(hostId, waiting);
        } catch (RuntimeException e) {
            log.debug("Realization of host {} not re-read: {}", hostId, e.toString());
        }
    }

    private void answer(UUID hostId, Set<Waiter> waiting) {
        Optional<RealizationStatus> status = status(hostId);
        for (Waiter w : waiting) {
            if (status.isEmpty()) {
                w.result().setErrorResult(new NotFoundException("No host with id " + hostId));
            } else if (done(status.get(), w.generation())) {
                w.result().setResult(status.get());
            }
        }
    }

    /**
     * Realized at or past the generation, or the push failed (the status says why). The trigger of V6_2 notifies
     * exactly when one of these two may have become true: the realized generation changed, or the state turned
     * FAILED (or the host was deleted).
     */
    static boolean done(RealizationStatus status, long generation) {
        return status.realizedGeneration() >= generation || status.state() == RealizationState.FAILED;
    }

    private Optional<RealizationStatus> status(UUID hostId) {
        return realizations.status(hostId);
    }

    private void forget(UUID hostId, Waiter waiter) {
        waiters.computeIfPresent(hostId, (id, set) -> {
            set.remove(waiter);
            return set.isEmpty() ? null : set;
        });
    }
}
