package io.edp.agent;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Capped exponential backoff with jitter: each delay doubles up to the cap, and is drawn between half of it and
 * all of it, so that agents cut off together (a manager restart) do not all come back in the same instant.
 */
final class Backoff {

    private final long initialMillis;
    private final long maxMillis;
    private long nextMillis;

    Backoff(Duration initial, Duration max) {
        this.initialMillis = initial.toMillis();
        this.maxMillis = max.toMillis();
        this.nextMillis = initialMillis;
    }

    /** The next delay to wait, and doubles the one after (up to the cap). */
    Duration next() {
        long base = nextMillis;
        nextMillis = Math.min(maxMillis, nextMillis * 2);
        return Duration.ofMillis(base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1));
    }

    /** After a success: start from the initial delay again. */
    void reset() {
        nextMillis = initialMillis;
    }
}
