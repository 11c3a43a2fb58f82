package io.edp.engine.reject;

/**
 * A token bucket on the engine clock's milliseconds: {@code ratePerSecond} tokens a second, at most {@code burst}
 * saved up, full at the start and after each {@link #limit change of limit}. Credit is kept in nanoseconds, so
 * any rate refills exactly. One owner thread.
 */
public final class TokenBucket {

    private long nanosPerToken;
    private long capacityNanos;
    private long creditNanos;
    private int lastMillis;

    public TokenBucket(int ratePerSecond, int burst) {
        limit(ratePerSecond, burst);
    }

    /** From now on {@code ratePerSecond} tokens a second, at most {@code burst} saved up; full. */
    public void limit(int ratePerSecond, int burst) {
        nanosPerToken = 1_000_000_000L / ratePerSecond;
        capacityNanos = nanosPerToken * burst;
        creditNanos = capacityNanos;
    }

    /** Takes a token if one is there at {@code nowMillis} (wrap-safe, as every engine-clock millisecond). */
    public boolean tryTake(int nowMillis) {
        int elapsed = nowMillis - lastMillis;
        lastMillis = nowMillis;
        if (elapsed > 0) { // a clock that steps back refills nothing
            creditNanos = Math.min(capacityNanos, creditNanos + elapsed * 1_000_000L);
        }
        if (creditNanos < nanosPerToken) {
            return false;
        }
        creditNanos -= nanosPerToken;
        return true;
    }
}
