package io.edp.manager.agent;

import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.edp.agent.AgentAnswer;
import io.edp.agent.EngineJson;
import io.edp.agent.EngineRequest;
import io.edp.manager.api.ConflictException;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.api.UnavailableException;
import io.edp.manager.database.DatabaseNotifications;
import io.edp.manager.database.NotificationChannel;
import io.edp.manager.host.AgentStatus;
import io.edp.manager.host.Placement;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import tools.jackson.core.type.TypeReference;

/**
 * Operators' requests to the engines of hosts placed AGENT, and of hosts placed EMBEDDED from a replica that runs
 * no embedded engines, queued in the engine_request table so that any replica may take one while the agent
 * long-polls any other, or the replica running the embedded engines listens (V6_4 says how a request travels;
 * {@link EmbeddedEngineRequests} executes them there). The caller waits for the
 * answer, woken by the database's notification of it ({@link NotificationChannel#ENGINE_ANSWER}), for at most
 * {@code edp.agent.request-timeout}; the answer becomes what an embedded engine would have returned or thrown, so
 * the REST API answers alike for both placements. No answer in time: 504, saying whether the agent is connected.
 * At most {@code edp.agent.concurrent-requests} callers wait on platform threads (Tomcat's request threads) at once;
 * one more is answered 503 at once. Callers on virtual threads (the fan-out of a rule's statistics, the ticks of
 * statistics streams) hold no request thread while they wait, and are bounded by what started them.
 */
@Component
@EnableConfigurationProperties(EngineRequestProperties.class)
class EngineRequests implements DatabaseNotifications.Subscriber {

    /** Rows whose caller went away without deleting them (a replica stopped) are deleted this long after. */
    private static final String ABANDONED_AFTER = "1 minute";

    private final JdbcClient jdbc;
    private final AgentRepository agents;
    private final EngineRequestProperties properties;
    /** The callers waiting on this replica, by request id: completed when an answer may have arrived. */
    private final Map<UUID, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();
    /** Permits of the callers on platform threads. */
    private final Semaphore requestThreads;

    EngineRequests(JdbcClient jdbc, AgentRepository agents, EngineRequestProperties properties) {
        this.jdbc = jdbc;
        this.agents = agents;
        this.properties = properties;
        this.requestThreads = new Semaphore(properties.concurrentRequests());
    }

    /**
     * Has the host's agent run {@code request} on its engine and answers its result as {@code type}, or throws what
     * the engine refused it with (400, 404, 409); 504 when the agent did not answer in time; 503 when {@code
     * edp.agent.concurrent-requests} callers on request threads wait already.
     */
    <T> T call(UUID hostId, EngineRequest request, TypeReference<T> type) {
        var answer = sendBounded(hostId, request);
        if (answer.error() != null) {
            throw refusal(hostId, answer.error());
        }
        return answer.result() == null || answer.result().isNull() ? null
                : EngineJson.MAPPER.convertValue(answer.result(), type);
    }

    private AgentAnswer sendBounded(UUID hostId, EngineRequest request) {
        if (Thread.currentThread().isVirtual()) {
            return send(hostId, request);
        }
        if (!requestThreads.tryAcquire()) {
            throw new UnavailableException("This replica already waits for " + properties.concurrentRequests()
                    + " answers of hosts' engines run elsewhere (edp.agent.concurrent-requests), each for up to "
                    + properties.requestTimeout().toMillis() + " ms; retry later.");
        }
        try {
            return send(hostId, request);
        } finally {
            requestThreads.release();
        }
    }

    private AgentAnswer send(UUID hostId, EngineRequest request) {
        var id = UUID.randomUUID();
        long timeout = properties.requestTimeout().toMillis();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        try {
            jdbc.sql("""
                            INSERT INTO engine_request (id, host_id, request, deadline)
                            VALUES (:id, :host, CAST(:request AS jsonb), \
                            now() + :timeout * interval '1 millisecond')""")
                    .param("id", id).param("host", hostId)
                    .param("request", EngineJson.MAPPER.writerFor(EngineRequest.class).writeValueAsString(request))
                    .param("timeout", timeout).update();
            while (true) {
                var woken = new CompletableFuture<Void>();
                waiting.put(id, woken); // before reading: an answer committed from here on completes it
                var answer = answer(id);
                long left = deadline - System.nanoTime();
                if (answer.isPresent()) {
                    return answer.get();
                }
                if (left <= 0) {
                    throw notAnswered(hostId);
                }
                awaitQuietly(woken, left);
            }
        } finally {
            waiting.remove(id);
            jdbc.sql("DELETE FROM engine_request WHERE id = :id OR deadline < now() - interval '" + ABANDONED_AFTER
                    + "'").param("id", id).update();
        }
    }

    /**
     * Hands the host's queued requests to the executor of its placement (its agent, or the replica running the
     * embedded engines), each once, oldest first; none when the host is placed otherwise.
     */
    List<EngineRequest.Queued> take(UUID hostId, Placement placement) {
        return take(List.of(hostId), placement).getOrDefault(hostId, List.of());
    }

    /** {@link #take(UUID, Placement)} for many hosts in one statement: the hosts with requests, and theirs. */
    Map<UUID, List<EngineRequest.Queued>> take(Collection<UUID> hostIds, Placement placement) {
        Map<UUID, List<Row>> rows = new HashMap<>();
        jdbc.sql("""
                        UPDATE engine_request r SET delivered_at = now() FROM host h
                         WHERE r.host_id = ANY(:hosts) AND h.id = r.host_id AND h.placement = :placement
                           AND r.delivered_at IS NULL AND r.deadline > now()
                        RETURNING r.host_id, r.id, r.request::text, r.created_at""")
                .param("hosts", hostIds.toArray(UUID[]::new)).param("placement", placement.name())
                .query(rs -> {
                    rows.computeIfAbsent(rs.getObject(1, UUID.class), host -> new ArrayList<>()).add(new Row(
                            rs.getTimestamp(4).toInstant(), new EngineRequest.Queued(rs.getObject(2, UUID.class),
                            EngineJson.MAPPER.readValue(rs.getString(3), EngineRequest.class))));
                });
        Map<UUID, List<EngineRequest.Queued>> taken = new HashMap<>();
        rows.forEach((host, queued) -> taken.put(host, queued.stream().sorted(Comparator.comparing(Row::created))
                .map(Row::queued).toList()));
        return taken;
    }

    private record Row(Instant created, EngineRequest.Queued queued) {
    }

    /** A request queued for the host's engine, as its notification says: {@code "<host id> <placement>"} (V6_8). */
    record Notice(UUID hostId, Placement placement) {

        static Notice parse(String payload) {
            int space = payload.indexOf(' ');
            return new Notice(UUID.fromString(payload.substring(0, space)),
                    Placement.valueOf(payload.substring(space + 1)));
        }
    }

    /** Whether the host, placed {@code placement}, has requests not handed out yet. */
    boolean queued(UUID hostId, Placement placement) {
        return !hostsWithQueued(placement, hostId).isEmpty();
    }

    /** Hosts placed {@code placement} with requests not handed out yet. */
    List<UUID> hostsWithQueued(Placement placement) {
        return hostsWithQueued(placement, null);
    }

    private List<UUID> hostsWithQueued(Placement placement, UUID onlyHost) {
        return jdbc.sql("""
                        SELECT DISTINCT r.host_id FROM engine_request r JOIN host h ON h.id = r.host_id
                         WHERE h.placement = :placement AND r.delivered_at IS NULL AND r.deadline > now()
                           AND (CAST(:host AS uuid) IS NULL OR r.host_id = :host)""")
                .param("placement", placement.name()).param("host", onlyHost, Types.OTHER)
                .query(UUID.class).list();
    }

    /**
     * Records the agent's answer to one of its host's requests; 404 when the host has no such request waiting
     * (another host's, answered already, or its caller gave up).
     */
    void answer(UUID hostId, UUID requestId, AgentAnswer answer) {
        int updated = jdbc.sql("""
                        UPDATE engine_request SET answer = CAST(:answer AS jsonb), answered_at = now()
                         WHERE id = :id AND host_id = :host AND answered_at IS NULL""")
                .param("answer", EngineJson.MAPPER.writeValueAsString(answer))
                .param("id", requestId).param("host", hostId).update();
        if (updated == 0) {
            throw new NotFoundException("No request " + requestId + " of this host waits for an answer (answered "
                    + "already, or its caller stopped waiting)");
        }
    }

    private Optional<AgentAnswer> answer(UUID id) {
        return jdbc.sql("SELECT answer::text FROM engine_request WHERE id = :id AND answered_at IS NOT NULL")
                .param("id", id).query(String.class).optional()
                .map(json -> EngineJson.MAPPER.readValue(json, AgentAnswer.class));
    }

    private static void awaitQuietly(CompletableFuture<Void> woken, long nanos) {
        try {
            woken.get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // read once more, then answer 504 if still nothing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the agent's answer", e);
        }
    }

    private ResponseStatusException notAnswered(UUID hostId) {
        if (agents.placement(hostId).orElse(null) == Placement.EMBEDDED) {
            return new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT, "The replica running the embedded "
                    + "engines (edp.engines.embedded) did not answer for host " + hostId + " within "
                    + properties.requestTimeout().toMillis() + " ms (edp.agent.request-timeout); nothing was done "
                    + "unless it received the request.");
        }
        var status = agents.of(List.of(hostId)).getOrDefault(hostId, AgentStatus.NONE);
        var connected = status.connected() ? "it is connected (last seen " + status.lastSeen() + ")"
                : status.lastSeen() == null ? "it has never connected"
                : "it is not connected (last seen " + status.lastSeen() + ")";
        return new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT, "The agent of host " + hostId
                + " did not answer within " + properties.requestTimeout().toMillis() + " ms (edp.agent.request-"
                + "timeout); " + connected + ". Nothing was done unless the agent received the request.");
    }

    private static RuntimeException refusal(UUID hostId, AgentAnswer.Error error) {
        return switch (error.status()) {
            case 400 -> new InvalidRequestException(error.field() == null ? "request" : error.field(),
                    error.message());
            case 404 -> new NotFoundException(error.message());
            case 409 -> new ConflictException(error.message());
            default -> new ResponseStatusException(HttpStatus.BAD_GATEWAY, "The engine of host " + hostId
                    + " failed the request: " + error.message());
        };
    }

    @Override
    public NotificationChannel channel() {
        return NotificationChannel.ENGINE_ANSWER;
    }

    @Override
    public void notified(String payload) {
        var woken = waiting.get(UUID.fromString(payload));
        if (woken != null) {
            woken.complete(null);
        }
    }

    @Override
    public void missed() {
        waiting.values().forEach(woken -> woken.complete(null)); // every caller reads its answer again
    }
}
