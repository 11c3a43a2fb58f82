package io.edp.manager.realization;

import java.util.HashSet;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.edp.manager.database.DatabaseNotifications;
import io.edp.manager.database.NotificationChannel;
import io.edp.manager.engines.HostDataPath;
import io.edp.manager.engines.HostEngines;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
 * recorded in a second transaction. The loop wakes on every notification of desired-state changes (the triggers that
 * bump generations send it; PostgreSQL delivers it after the commit, whichever replica committed) and every sweep
 * interval (retries whose backoff ran out, notifications missed while disconnected).
 * <p>
 * On start every host is pushed once whatever its generations say: engines hold nothing that is not rebuilt from
 * the database. Every host waits as PENDING (with the reason) until its turn; until all are pushed the manager is
 * not ready ({@link StartupReconciliationHealthIndicator}).
 * <p>
 * Every sweep also asks each engine for its workers' health: a worker that died or stalled turns a SUCCESS into
 * FAILED with the engine's reason, and the retry rebuilds the engine.
 * <p>
 * At most {@link RealizationProperties#parallelism()} pushes run at once, at start-up and after: each builds or
 * changes an engine, and hundreds of engines allocated at once would exhaust the memory. A host is claimed only
 * when a push slot is free, so its lease does not run out while it waits.
 * <p>
 * It runs only on the replica that hosts the embedded engines ({@link ConditionalOnEmbeddedEngines}): engines in
 * one process only, so no host is pushed by two replicas and nothing needs fencing.
 */
@Component
@ConditionalOnEmbeddedEngines
class Reconciler implements SmartLifecycle, DatabaseNotifications.Subscriber {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
    static final String STARTUP_WAIT = "start-up reconciliation: waiting for a push slot";
    static final String STARTUP_PUSH = "start-up reconciliation: rebuilding the engine";

    private final TransactionTemplate tx;
    private final RealizationRepository realizations;
    private final DesiredState desiredState;
    private final HostEngines engines;
    private final RealizationProperties properties;
    private final Semaphore wakeUps = new Semaphore(0);
    private final Semaphore pushSlots;
    private volatile boolean startupReconciled;
    private final ReentrantLock everyHost = new ReentrantLock();
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
        this.pushSlots = new Semaphore(properties.parallelism());
    }

    /** A claimed host with what it should run, or why that could not be built. */
    private record Work(RealizationRepository.Claim claim, HostDataPath desired, String buildError, boolean rebuild) {
    }

    /** Asks the loop to look for due work now. */
    void wake() {
        wakeUps.release();
    }

    @Override
    public NotificationChannel channel() {
        return NotificationChannel.DESIRED_STATE;
    }

    @Override
    public void notified(String payload) {
        wake();
    }

    @Override
    public void missed() {
        wake();
    }

    @Override
    public synchronized void start() {
        running = true;
        pushes = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("edp-push-", 0).factory());
        loop = Thread.ofPlatform().name("edp-reconciler").daemon(true).start(this::run);
    }

    private void run() {
        while (running) {
            try {
                // not while another thread reconciles every host (a test does): that run marks the end itself
                if (!startupReconciled && everyHost.tryLock()) {
                    try {
                        reconcileEveryHostAlone();
                    } finally {
                        everyHost.unlock();
                    }
                }
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

    /**
     * Pushes every host of the database, at most {@code parallelism} at once, waiting for all. One run at a time:
     * a second would mark the hosts of the first waiting again and compete for its push slots.
     */
    void reconcileEveryHost() {
        everyHost.lock();
        try {
            reconcileEveryHostAlone();
        } finally {
            everyHost.unlock();
        }
    }

    private void reconcileEveryHostAlone() {
        startupReconciled = false;
        tx.executeWithoutResult(status -> realizations.awaitStartUpPush(STARTUP_WAIT));
        try {
            for (var hostId : realizations.embeddedHostIds()) {
                pushSlots.acquire();
                start(() -> realizations.claim(hostId, properties.lease(), STARTUP_PUSH)
                        .map(claim -> read(claim, true)));
            }
            // every slot free again: every start-up push has ended
            pushSlots.acquire(properties.parallelism());
            pushSlots.release(properties.parallelism());
            startupReconciled = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the start-up reconciliation has pushed every host. */
    boolean startupReconciled() {
        return startupReconciled;
    }

    /**
     * Closes the engines of deleted hosts, marks FAILED the hosts whose engine lost a worker (dead or stalled), then
     * claims and starts a push for every due host.
     */
    private void sweep() {
        var known = new HashSet<>(realizations.embeddedHostIds());
        for (var hostId : engines.hosts()) {
            if (!known.contains(hostId)) {
                engines.remove(hostId);
            } else {
                engines.fault(hostId).ifPresent(reason -> {
                    tx.executeWithoutResult(status -> realizations.engineFailed(hostId, reason,
                            properties.retryInitial(), properties.retryMax()));
                });
            }
        }
        try {
            while (running) {
                pushSlots.acquire();
                if (!start(() -> realizations.claimDue(properties.lease()).map(claim -> read(claim, false)))) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Claims work with a push slot the caller acquired and starts its push, which frees the slot; frees it at once
     * when there is nothing to claim. Returns whether a push started.
     */
    private boolean start(Supplier<Optional<Work>> claim) {
        Optional<Work> work;
        try {
            work = tx.execute(status -> claim.get());
        } catch (RuntimeException e) {
            pushSlots.release();
            throw e;
        }
        if (work.isEmpty()) {
            pushSlots.release();
            return false;
        }
        // execute, not submit: an Error must reach the uncaught-exception handler, not a Future nobody reads
        pushes.execute(() -> {
            try {
                push(work.get());
            } finally {
                pushSlots.release();
            }
        });
        return true;
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
