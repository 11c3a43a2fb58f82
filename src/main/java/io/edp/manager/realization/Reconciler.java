package io.edp.manager.realization;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Pushes desired state to the engines until every host's realized generation reaches its desired one.
 * <p>
 * One loop thread claims due hosts, one at a time, each in a short transaction that locks the host's realization
 * row ({@code FOR UPDATE SKIP LOCKED}), leases it (IN_PROGRESS) and reads its desired state: while the row is
 * locked no change to that host can commit, so what is read is exactly the claimed generation. The push itself
 * runs on a virtual thread outside any transaction, so a slow or failing host holds up no other; its result is
 * recorded in a second transaction. The loop wakes on {@link #wake()} (database notifications after each commit)
 * and every sweep interval (retries whose backoff ran out, notifications missed while disconnected).
 * <p>
 * On start every host is pushed once whatever its generations say: engines hold nothing that is not rebuilt from
 * the database.
 * <p>
 * Every sweep also asks each engine for its workers' health: a worker that died or stalled turns a SUCCESS into
 * FAILED with the engine's reason, and the retry rebuilds the engine.
 */
@Component
@EnableConfigurationProperties(RealizationProperties.class)
class Reconciler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    private final TransactionTemplate tx;
    private final RealizationRepository realizations;
    private final DesiredState desiredState;
    private final HostEngines engines;
    private final RealizationProperties properties;
    private final Semaphore wakeUps = new Semaphore(0);
    private ExecutorService pushes;
    private Thread loop;
    private volatile boolean running;

    Reconciler(TransactionTemplate tx, RealizationRepository realizations, DesiredState desiredState,
               HostEngines engines, RealizationProperties properties) {
        this.tx = tx;
        this.realizations = realizations;
        this.desiredState = desiredState;
        this.engines = engines;
        this.properties = properties;
    }

    /** A claimed host with what it should run, or why that could not be built. */
    private record Work(RealizationRepository.Claim claim, HostDataPath desired, String buildError, boolean rebuild) {
    }

    /** Asks the loop to look for due work now. */
    void wake() {
        wakeUps.release();
    }

    @Override
    public synchronized void start() {
        running = true;
        pushes = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("edp-push-", 0).factory());
        loop = Thread.ofPlatform().name("edp-reconciler").daemon(true).start(this::run);
    }

    private void run() {
        try {
            reconcileEveryHost();
        } catch (RuntimeException e) {
            log.warn("Start-up reconciliation incomplete, the sweeps retry: {}", e.toString());
        }
        while (running) {
            try {
                wakeUps.tryAcquire(properties.sweepInterval().toMillis(), TimeUnit.MILLISECONDS);
                wakeUps.drainPermits();
                if (running) {
                    sweep();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // the database may be briefly away: the next sweep tries again
                log.warn("Reconciler sweep failed: {}", e.toString());
            }
        }
    }

    /** Pushes every host of the database, waiting for all: the engines are rebuilt from it. */
    void reconcileEveryHost() {
        var started = new ArrayList<Future<?>>();
        for (var hostId : realizations.hostIds()) {
            var work = tx.execute(status -> realizations.claim(hostId, properties.lease())
                    .map(claim -> read(claim, true)).orElse(null));
            if (work != null) {
                started.add(pushes.submit(() -> push(work)));
            }
        }
        for (var push : started) {
            try {
                push.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                log.warn("Start-up push failed: {}", e.getCause().toString());
            }
        }
    }

    /**
     * Closes the engines of deleted hosts, marks FAILED the hosts whose engine lost a worker (dead or stalled), then
     * claims and starts a push for every due host.
     */
    private void sweep() {
        var known = new HashSet<>(realizations.hostIds());
        for (var hostId : engines.hosts()) {
            if (!known.contains(hostId)) {
                engines.remove(hostId);
            } else {
                engines.fault(hostId).ifPresent(reason -> tx.executeWithoutResult(status ->
                        realizations.engineFailed(hostId, reason, properties.retryInitial(), properties.retryMax())));
            }
        }
        Work work;
        while (running && (work = tx.execute(status -> realizations.claimDue(properties.lease())
                .map(claim -> read(claim, false)).orElse(null))) != null) {
            var claimed = work;
            pushes.submit(() -> push(claimed));
        }
    }

    private Work read(RealizationRepository.Claim claim, boolean rebuild) {
        try {
            var desired = desiredState.read(claim.hostId(), claim.generation()).orElse(null);
            return new Work(claim, desired, null, rebuild);
        } catch (IllegalArgumentException e) {
            return new Work(claim, null, e.getMessage(), rebuild);
        }
    }

    private void push(Work work) {
        var hostId = work.claim().hostId();
        try {
            if (work.buildError() != null) {
                throw new IllegalArgumentException("invalid configuration: " + work.buildError());
            }
            if (work.desired() == null) {
                engines.remove(hostId); // the host was deleted meanwhile
                return;
            }
            engines.push(work.desired());
            tx.executeWithoutResult(status -> realizations.succeeded(hostId, work.claim().generation()));
        } catch (RuntimeException e) {
            var reason = e.getMessage() == null ? e.toString() : e.getMessage();
            log.warn("Push of generation {} to host {} failed: {}", work.claim().generation(), hostId, reason);
            boolean lost = work.rebuild() || engines.engine(hostId).isEmpty();
            tx.executeWithoutResult(status -> realizations.failed(hostId, reason, lost, properties.retryInitial(),
                    properties.retryMax()));
        } finally {
            wake(); // a change that arrived during the push is due now
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (loop != null) {
            wake();
            try {
                loop.join(10_000);
                pushes.shutdown();
                pushes.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            loop = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
