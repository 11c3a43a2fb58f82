package io.edp.manager.agent;

import java.time.Duration;
import java.util.HashMap;
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
import io.edp.manager.host.Placement;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.realization.AgentRealization;
import io.edp.manager.realization.AgentRealization.AgentDesired;
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
 *
 * <p>An agent's first poll (no {@code after}: it connects or reconnects) is answered the same way, off the request
 * thread and together with the first polls that arrive meanwhile: after a replica's loss, or at a fleet's start,
 * hundreds arrive within a second, and each building its state on its request thread held the database bulkhead's
 * permits until it refused the rest with 503.
 */
@Component
class DesiredStateWatches implements DatabaseNotifications.Subscriber {

    private static final Logger log = LoggerFactory.getLogger(DesiredStateWatches.class);

    /** {@code after}: null for a first poll, which any desired generation answers. */
    private record Watch(Long after, DeferredResult<ResponseEntity<AgentDesiredState>> result) {

        boolean answeredBy(Long generation) {
            return generation == null || after == null || after.longValue() != generation;
        }
    }

    /**
     * Shares of the woken hosts built at once, each in one transaction (docs/benchmarks.md, "Fleet"): a few at a
     * time stay well inside the connection pool.
     */
    private static final int ANSWERING_THREADS = 4;

    private final AgentRealization realization;
    private final EngineRequests requests;
    private final Map<UUID, Set<Watch>> watches = new ConcurrentHashMap<>();
    /**
     * Re-reads run one at a time, off the notification thread; wake-ups while one is queued share it, and one
     * during a re-read queues the next (see recheck), so none is lost.
     */
    private final ExecutorService rechecks = Executors.newSingleThreadExecutor(
            task -> Thread.ofPlatform().name("edp-agent-watches").daemon(true).unstarted(task));
    private final AtomicBoolean recheckQueued = new AtomicBoolean();
    /** Hosts with a first poll waiting to be answered; answered together by the re-read thread. */
    private final Set<UUID> firstPolls = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean firstPollsQueued = new AtomicBoolean();
    /**
     * Hosts whose request notification found no watch here, and when (System.nanoTime): their agent's next poll on
     * this replica is answered at once, since the request was queued while it was between two polls. Costs no query
     * per poll; a marker is used once, and ignored once the request must have timed out.
     */
    private final Map<UUID, Long> requestedWithoutWatch = new ConcurrentHashMap<>();
    private final long requestMarkerNanos;
    private final ExecutorService answers = Executors.newFixedThreadPool(ANSWERING_THREADS,
            Thread.ofPlatform().name("edp-agent-answers-", 0).daemon(true).factory());

    DesiredStateWatches(AgentRealization realization, EngineRequests requests, EngineRequestProperties properties) {
        this.realization = realization;
        this.requests = requests;
        this.requestMarkerNanos = properties.requestTimeout().toNanos();
    }

    /**
     * The host's whole desired state, with the requests to its engine queued meanwhile (handed out once:
     * {@link EngineRequests#take}); the engine is left out (null) for a host placed EMBEDDED, whose engine the
     * manager runs, so that an agent left on it does not forward too. A failure to build it is the result's error
     * instead: {@link NotFoundException} when the host is gone, {@link ConflictException} when its settings make no
     * valid engine configuration.
     */
    private static AgentDesiredState state(UUID hostId, AgentDesired desired) {
        return switch (desired) {
            case null -> throw new NotFoundException("No host with id " + hostId);
            case AgentDesired.Invalid invalid -> throw new ConflictException("invalid configuration: "
                    + invalid.reason());
            case AgentDesired.Runs(var runs) -> new AgentDesiredState(hostId, runs.hostName(), runs.generation(),
                    runs.engine() == null ? null : EngineJson.tree(runs.engine()));
        };
    }

    /**
     * The host's whole desired state once its desired generation is not {@code after} (null: at once, as soon as
     * it is built; see the class comment), or at a request to its engine; 204 when {@code wait} runs out first.
     */
    DeferredResult<ResponseEntity<AgentDesiredState>> await(UUID hostId, Long after, Duration wait) {
        var result = new DeferredResult<ResponseEntity<AgentDesiredState>>(wait.toMillis(),
                () -> ResponseEntity.noContent().build());
        var watch = new Watch(after, result);
        result.onCompletion(() -> forget(hostId, watch));
        watches.computeIfAbsent(hostId, id -> ConcurrentHashMap.newKeySet()).add(watch);
        if (after == null) {
            answerFirstPoll(hostId);
            return result; // its answer hands over what is queued
        }
        recheck(Set.of(hostId)); // it may have changed before the watch was in place; only this host, at once
        var marked = requestedWithoutWatch.remove(hostId);
        if (marked != null && System.nanoTime() - marked < requestMarkerNanos) {
            wake(hostId); // queued while the agent was between polls: its notification found no watch
        }
        return result;
    }

    /** Answers the host's watches now, whatever their generation: a request to its engine was queued. */
    void wake(UUID hostId) {
        // marked first, then looked for: a watch put in place meanwhile finds the marker, or is found here
        long marker = System.nanoTime();
        requestedWithoutWatch.put(hostId, marker);
        var waiting = watches.get(hostId);
        if (waiting != null) {
            var due = waiting.stream().filter(waiting::remove).toList();
            if (!due.isEmpty()) {
                requestedWithoutWatch.remove(hostId, marker);
                answer(Map.of(hostId, due));
            }
        }
    }

    /**
     * Answers the host's first poll on the re-read thread, together with every first poll that arrived while the
     * previous ones were answered.
     */
    private void answerFirstPoll(UUID hostId) {
        firstPolls.add(hostId);
        if (firstPollsQueued.compareAndSet(false, true)) {
            rechecks.execute(() -> {
                firstPollsQueued.set(false); // a first poll from here on queues another round
                var hostIds = Set.copyOf(firstPolls);
                firstPolls.removeAll(hostIds);
                Map<UUID, List<Watch>> due = new HashMap<>();
                for (var id : hostIds) {
                    var waiting = watches.get(id);
                    var first = waiting == null ? List.<Watch>of()
                            : waiting.stream().filter(w -> w.after() == null).filter(waiting::remove).toList();
                    if (!first.isEmpty()) {
                        due.put(id, first);
                    }
                }
                answer(due);
            });
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
     * Answers the watches of the {@code watched} hosts whose desired generation is not theirs. A watch is answered by
     * whoever takes it out of the set, so overlapping re-reads never answer one twice.
     */
    private void recheck(Set<UUID> watched) {
        // one snapshot for the query and the loop: a host whose watch came after the query (the live key set grows)
        // would have no generation here, and a missing generation means a deleted host, answered at once
        var hostIds = Set.copyOf(watched);
        Map<UUID, List<Watch>> due = new HashMap<>();
        try {
            var generations = realization.desiredGenerations(hostIds);
            for (var hostId : hostIds) {
                var waiting = watches.get(hostId);
                if (waiting == null) {
                    continue;
                }
                Long generation = generations.get(hostId);
                var answered = waiting.stream().filter(w -> w.answeredBy(generation)).filter(waiting::remove)
                        .toList();
                if (!answered.isEmpty()) {
                    due.put(hostId, answered);
                }
            }
        } catch (RuntimeException e) {
            // the database may be away: the next notification or recheck tries again, the agent keeps forwarding
            log.debug("Agents' desired state not re-read: {}", e.toString());
        }
        answer(due);
    }

    /**
     * Answers {@code due} (watches taken out of the set) with their hosts' current state, on the answering threads:
     * the hosts split in one share per thread, each share's states built together ({@link AgentRealization#forAgents}).
     */
    private void answer(Map<UUID, List<Watch>> due) {
        var hostIds = List.copyOf(due.keySet());
        int share = Math.ceilDiv(hostIds.size(), ANSWERING_THREADS);
        for (int from = 0; from < hostIds.size(); from += share) {
            var part = hostIds.subList(from, Math.min(hostIds.size(), from + share));
            answers.execute(() -> answer(part, due));
        }
    }

    /** The states built first, then the requests handed out: a state that fails to build takes none. */
    private void answer(List<UUID> hostIds, Map<UUID, List<Watch>> due) {
        Map<UUID, AgentDesiredState> states = new HashMap<>();
        try {
            var desired = realization.forAgents(hostIds);
            for (var hostId : hostIds) {
                try {
                    states.put(hostId, state(hostId, desired.get(hostId)));
                } catch (RuntimeException e) {
                    due.get(hostId).forEach(w -> w.result().setErrorResult(e));
                }
            }
            var queued = requests.take(states.keySet(), Placement.AGENT);
            states.forEach((hostId, state) -> {
                var answer = ResponseEntity.ok(state.withRequests(queued.getOrDefault(hostId, List.of())));
                due.get(hostId).forEach(w -> w.result().setResult(answer));
            });
        } catch (RuntimeException e) {
            // the database went away: every watch not answered yet gets the problem (an answered one keeps its answer)
            hostIds.forEach(hostId -> due.get(hostId).forEach(w -> w.result().setErrorResult(e)));
        }
    }

    private void forget(UUID hostId, Watch watch) {
        watches.computeIfPresent(hostId, (id, set) -> {
            set.remove(watch);
            return set.isEmpty() ? null : set;
        });
    }
}
