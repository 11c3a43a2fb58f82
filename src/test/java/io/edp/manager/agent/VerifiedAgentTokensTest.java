package io.edp.manager.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

/**
 * The tokens a replica keeps: kept only while its notifications are heard, dropped per host on a notification (all
 * on one without a payload, and when the listening restarts), never a refusal, and a check that read the database
 * across a drop does not keep what it read.
 */
class VerifiedAgentTokensTest {

    private static final AgentPrincipal A = new AgentPrincipal(UUID.randomUUID(), "esx-a");
    private static final AgentPrincipal B = new AgentPrincipal(UUID.randomUUID(), "esx-b");
    private static final byte[] HASH_A = {1, 2, 3};
    private static final byte[] HASH_B = {4, 5, 6};

    private final VerifiedAgentTokens tokens = new VerifiedAgentTokens();
    private final AtomicInteger reads = new AtomicInteger();

    /** The database: A's and B's hashes, counting its reads. */
    private Optional<AgentPrincipal> database(byte[] hash) {
        reads.incrementAndGet();
        return hash[0] == HASH_A[0] ? Optional.of(A) : hash[0] == HASH_B[0] ? Optional.of(B) : Optional.empty();
    }

    private Optional<AgentPrincipal> check(byte[] hash) {
        return tokens.authenticate(hash.clone(), this::database);
    }

    @Test
    void keptWhileListeningAndDroppedPerHost() {
        assertThat(check(HASH_A)).contains(A);
        assertThat(check(HASH_A)).contains(A);
        assertThat(reads).as("not listening yet: every check reads").hasValue(2);

        tokens.missed();
        check(HASH_A);
        check(HASH_B);
        assertThat(check(HASH_A)).contains(A);
        assertThat(check(HASH_B)).contains(B);
        assertThat(reads).as("read once each, then kept").hasValue(4);
        assertThat(check(new byte[] {9})).isEmpty();
        assertThat(check(new byte[] {9})).isEmpty();
        assertThat(reads).as("a refusal is not kept").hasValue(6);

        tokens.notified(A.hostId().toString());
        assertThat(check(HASH_B)).contains(B);
        assertThat(reads).as("B still kept").hasValue(6);
        assertThat(check(HASH_A)).contains(A);
        assertThat(reads).as("A dropped").hasValue(7);

        tokens.notified("");
        check(HASH_A);
        check(HASH_B);
        assertThat(reads).as("all dropped").hasValue(9);
    }

    @Test
    void nothingKeptFromALostConnectionUntilListeningResumes() {
        tokens.missed();
        check(HASH_A);
        tokens.lost();
        check(HASH_A);
        check(HASH_A);
        assertThat(reads).as("lost: dropped, and every check reads").hasValue(3);
        tokens.missed();
        check(HASH_A);
        check(HASH_A);
        assertThat(reads).as("kept again").hasValue(4);
    }

    @Test
    void aCheckThatReadAcrossADropKeepsNothing() {
        tokens.missed();
        Function<byte[], Optional<AgentPrincipal>> readThenReplaced = hash -> {
            var read = database(hash); // the old token, read before its replacement committed
            tokens.drop(A.hostId());
            return read;
        };
        assertThat(tokens.authenticate(HASH_A.clone(), readThenReplaced)).contains(A);
        check(HASH_A);
        assertThat(reads).as("not kept: the next check reads again").hasValue(2);
    }
}
