package io.edp.manager.agent;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

import io.edp.manager.host.HostService;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Agent tokens: 256 random bits, shown once when issued, stored only as their SHA-256. A fast unsalted hash is
 * enough here, unlike for passwords: a token is random and as long as the hash, so there is no dictionary to try
 * and no guess cheaper than 2^255 hashes, and a lookup by hash lets each agent request cost one index read rather
 * than a deliberately slow password check.
 */
@Service
public class AgentTokens {

    private static final SecureRandom random = new SecureRandom();

    private final AgentRepository agents;
    private final HostService hosts;
    private final VerifiedAgentTokens verified;

    AgentTokens(AgentRepository agents, HostService hosts, VerifiedAgentTokens verified) {
        this.agents = agents;
        this.hosts = hosts;
        this.verified = verified;
    }

    /** A fresh token for the host's agent, replacing the previous one; 404 if there is no such host. */
    @Transactional
    AgentTokenResponse issue(UUID hostId) {
        var host = hosts.require(hostId);
        var bytes = new byte[32];
        random.nextBytes(bytes);
        var token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        var issuedAt = agents.issue(hostId, sha256(token));
        // this replica refuses the old token as soon as the answer is out, not only once its notification arrives
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                verified.drop(hostId);
            }
        });
        return new AgentTokenResponse(hostId, host.name(), token, issuedAt);
    }

    /** The agent a bearer token authenticates, if it is a current one (one query, no transaction, when not kept). */
    public Optional<AgentPrincipal> authenticate(String token) {
        return verified.authenticate(sha256(token), agents::byToken);
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
