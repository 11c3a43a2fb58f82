package io.edp.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;

import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void delaysDoubleUpToTheCapEachDrawnBetweenHalfAndAllOfItAndStartOverAfterASuccess() {
        var backoff = new Backoff(Duration.ofMillis(100), Duration.ofMillis(1_000));
        long[] bases = {100, 200, 400, 800, 1_000, 1_000, 1_000};
        for (long base : bases) {
            assertThat(backoff.next().toMillis()).isBetween(base / 2, base);
        }
        backoff.reset();
        assertThat(backoff.next().toMillis()).isBetween(50L, 100L);
    }

    @Test
    void agentsCutOffTogetherDoNotAllComeBackInTheSameInstant() {
        var delays = new HashSet<Long>();
        for (int agent = 0; agent < 50; agent++) {
            delays.add(new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(15)).next().toMillis());
        }
        assertThat(delays).as("distinct first delays of 50 agents").hasSizeGreaterThan(10);
    }
}
