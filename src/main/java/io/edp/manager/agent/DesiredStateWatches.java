package io.edp.manager.agent;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import io.edp.agent.AgentDesiredState;
import io.edp.agent.EngineJson;
import io.edp.manager.api.ConflictException;
import io.edp.manager.database.DatabaseNotifications;
import io.edp.manager.database.NotificationChannel;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.host.HostService;
import io.edp.manager.host.Placement;
import io.edp.manager.engines.HostDataPath;
import io.edp.manager.realization.AgentRealization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * The agents' long polls on their desired state. A poll names the generation its agent runs ({@code after}); it is
 * answered with the whole desired state as soon as the host's desired generation is another, else with 204 when
 * its wait runs out. Woken by the database's notifications of every committed change to a desired state
 * ({@link NotificationChannel#DESIRED_STATE}, so a change made through any replica), and after the listening
 * connection came back (notifications may have been missed). No request thread is held while waiting.
 */
@Component
class DesiredStateWatches implements DatabaseNotifications.Subscriber {

    private static final Logger log = LoggerFactory.getLogger(DesiredStateWatches.class);

    private record Watch(long after, DeferredResult<ResponseEntity<AgentDesiredState>> result) {
    }

    /**
     * Answers built at once: each reads a host's whole desired state in its own transaction (tens of ms), so one
     * change that wakes 200 agents answered one by one took seconds (docs/benchmarks.md, "Fleet"); a few at a time
     * stay well inside the connection pool.
     */
    private static final int ANSWERING_THREADS = 4;

    private final AgentRealization realization;
    private final HostService hosts;
    private final EngineRequests requests;
    private final Map<UUID, Set<Watch>> watches = new ConcurrentHashMap<>();
    /**
     * Re-reads run one at a time, off the notification thread; wake-ups while one is queued share it, and one
     * during a re-read queues the next (see recheck), so none is lost.
     */
    private final ExecutorService rechecks = Executors.newSingleThreadExecutor(
            task -> Thread.ofPlatform().name("edp-agent-watches").daemon(true).unstarted(task));
    private final AtomicBoolean recheckQueued = new AtomicBoolean();
    private final ExecutorService answers = Executors.newFixedThreadPool(ANSWERING_THREADS,
            Thread.ofPlatform().name("edp-agent-answers-", 0).daemon(true).factory());

    DesiredStateWatches(AgentRealization realization, HostService hosts, EngineRequests requests) {
        this.realization = realization;
        this.hosts = hosts;
        this.requests = requests;
    }

    /**
     * The host's whole desired state now, with the requests to its engine queued meanwhile (handed out here, once:
     * {@link EngineRequests#take}). The engine is left out (null) for a host placed EMBEDDED: the manager
     * runs its engine, so an agent left on it must not forward too.
     *
     * @throws NotFoundException when the host is gone
     * @throws ConflictException when its settings do not make a valid engine configuration
     */
    AgentDesiredState current(UUID hostId) {
        var placement = hosts.require(hostId).placement();
        HostDataPath desired;
        try {
            desired = realization.desired(hostId)
                    .orElseThrow(() -> new NotFoundException("No host with id " + hostId));
        } catch (IllegalArgumentException e) {
            throw new ConflictException("invalid configuration: " + e.getMessage());
        }
        var engine = placement == Placement.AGENT && desired.engine() != null ? EngineJson.tree(desired.engine())
                : null;
        return new AgentDesiredState(hostId, desired.hostName(), desired.generation(), engine)
                .withRequests(requests.take(hostId));
    }

    DeferredResult<ResponseEntity<AgentDesiredState>> await(UUID hostId, long after, Duration wait) {
        var result = new DeferredResult<ResponseEntity<AgentDesiredState>>(wait.toMillis(),
                () -> ResponseEntity.noContent().build());
        var watch = new Watch(after, result);
        result.onCompletion(() -> forget(hostId, watch));
        watches.computeIfAbsent(hostId, id -> ConcurrentHashMap.newKeySet()).add(watch);
        recheck(Set.of(hostId)); // it may have changed before the watch was in place; only this host, at once
        return result;
    }

    /** Answers the host's watches now, whatever their generation: a request to its engine was queued. */
    void wake(UUID hostId) {
        var waiting = watches.get(hostId);
        if (waiting != null) {
            var due = waiting.stream().filter(waiting::remove).toList();
            if (!due.isEmpty()) {
                answers.execute(() -> answer(hostId, due));
            }
        }
    }

    @Override
    public NotificationChannel channel() {
        return NotificationChannel.DESIRED_STATE;
    }

    @Override
    public void notified(String payload) {
        desiredStateChanged();
    }

    @Override
    public void missed() {
        desiredStateChanged();
    }

    private void desiredStateChanged() {
        if (!watches.isEmpty() && recheckQueued.compareAndSet(false, true)) {
            rechecks.execute(() -> {
                recheckQueued.set(false); // a change committed from here on queues another re-read
                recheck(watches.keySet());
            });
        }
    }

    /**
     * Answers the watches of {@code hostIds} whose host's desired generation is not theirs. A watch is answered by
     * whoever takes it out of the set, so overlapping re-reads never answer one twice.
     */
    private void recheck(Set<UUID> hostIds) {
        try {
            var generations = realization.desiredGenerations(hostIds);
            for (var hostId : hostIds) {
                var waiting = watches.get(hostId);
                if (waiting == null) {
                    continue;
                }
                Long generation = generations.get(hostId);
                var due = waiting.stream().filter(w -> generation == null || w.after() != generation)
                        .filter(waiting::remove).toList();
                if (!due.isEmpty()) {
                    answers.execute(() -> answer(hostId, due));
                }
            }
        } catch (RuntimeException e) {
            // the database may be away: the next notification or recheck tries again, the agent keeps forwarding
            log.debug("Agents' desired state not re-read: {}", e.toString());
        }
    }

    private void answer(UUID hostId, List<Watch> due) {
        try {
            var answer = ResponseEntity.ok(current(hostId));
            due.forEach(w -> w.result().setResult(answer));
        } catch (RuntimeException e) {
            due.forEach(w -> w.result().setErrorResult(e)); // a problem, as the same request answered at once
        }
    }

    private void forget(UUID hostId, Watch watch) {
        watches.computeIfPresent(hostId, (id, set) -> {
            set.remove(watch);
            return set.isEmpty() ? null : set;
        });
    }
}
