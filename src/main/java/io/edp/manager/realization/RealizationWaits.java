package io.edp.manager.realization;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.edp.manager.api.NotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * Long-polls on a host's realization: a waiter is answered as soon as the generation it names is realized, or the
 * push failed, or its wait runs out (then with the status as it is). This replica's {@link Reconciler} reports
 * each push it finishes ({@link #changed}); pushes finished by another replica sharing the database are seen by a
 * re-read of the waited-on hosts every {@value #RECHECK_MILLIS} ms. No request thread is held while waiting.
 */
@Component
class RealizationWaits implements SmartLifecycle {

    static final int RECHECK_MILLIS = 1_000;
    private static final Logger log = LoggerFactory.getLogger(RealizationWaits.class);

    private record Waiter(long generation, DeferredResult<RealizationStatus> result) {
    }

    private final RealizationRepository realizations;
    private final Map<UUID, Set<Waiter>> waiters = new ConcurrentHashMap<>();
    private ScheduledExecutorService recheck;

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

    /**
     * The host's realization may have moved: answers its waiters whose wait is over. Never throws (a database
     * away now leaves them to the next recheck or their timeout), so a push's bookkeeping can call it last.
     */
    void changed(UUID hostId) {
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

    /** Realized at or past the generation, or the push failed (the status says why). */
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

    @Override
    public synchronized void start() {
        recheck = Executors.newSingleThreadScheduledExecutor(
                task -> Thread.ofPlatform().name("edp-realization-waits").daemon(true).unstarted(task));
        recheck.scheduleWithFixedDelay(() -> waiters.keySet().forEach(this::changed), RECHECK_MILLIS,
                RECHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (recheck != null) {
            recheck.shutdownNow();
            recheck = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return recheck != null;
    }
}
