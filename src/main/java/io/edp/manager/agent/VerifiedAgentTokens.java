package io.edp.manager.agent;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.edp.manager.database.DatabaseNotifications;
import io.edp.manager.database.NotificationChannel;
import org.springframework.stereotype.Component;

/**
 * The agent tokens this replica verified, by hash, so that an agent's call takes no database connection for its
 * token: in a fleet every change brings each agent's realization report and its next long poll at once. Only tokens
 * that authenticated are kept, never a refusal, so at most one per host. A host's token is dropped as soon as the
 * replica hears on edp_agent_token (V7_2) that it was replaced or withdrawn, or the host renamed or deleted, through
 * whichever replica. While the replica is not listening (before the listening starts, and from a broken connection
 * until listening resumes) nothing is kept and every token is checked against the database.
 */
@Component
class VerifiedAgentTokens implements DatabaseNotifications.Subscriber {

    private final Map<ByteBuffer, AgentPrincipal> verified = new ConcurrentHashMap<>();
    /** Moves with every drop, so that a check which read the database across one does not keep what it read. */
    private long drops;
    private boolean listening;

    /** The agent the token with this hash authenticates: kept, or read by {@code database} (and then kept). */
    Optional<AgentPrincipal> authenticate(byte[] tokenSha256, Function<byte[], Optional<AgentPrincipal>> database) {
        var key = ByteBuffer.wrap(tokenSha256);
        var kept = verified.get(key);
        if (kept != null) {
            return Optional.of(kept);
        }
        long before;
        synchronized (this) {
            before = drops;
        }
        var agent = database.apply(tokenSha256);
        agent.ifPresent(principal -> keep(key, principal, before));
        return agent;
    }

    private synchronized void keep(ByteBuffer key, AgentPrincipal principal, long before) {
        if (listening && drops == before) {
            verified.put(key, principal);
        }
    }

    /** Drops the host's token; called on the notification and by the replica that replaced it, after commit. */
    synchronized void drop(UUID hostId) {
        drops++;
        verified.values().removeIf(principal -> principal.hostId().equals(hostId));
    }

    @Override
    public NotificationChannel channel() {
        return NotificationChannel.AGENT_TOKEN;
    }

    @Override
    public void notified(String payload) {
        if (payload.isEmpty()) {
            dropAll(true);
        } else {
            drop(UUID.fromString(payload));
        }
    }

    @Override
    public void missed() {
        dropAll(true);
    }

    @Override
    public void lost() {
        dropAll(false);
    }

    private synchronized void dropAll(boolean listening) {
        drops++;
        verified.clear();
        this.listening = listening;
    }
}
