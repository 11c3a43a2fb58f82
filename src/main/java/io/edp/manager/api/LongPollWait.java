package io.edp.manager.api;

import java.time.Duration;

import org.springframework.boot.convert.DurationStyle;

/** The {@code wait} parameter of a long poll: a duration such as 30s or 500ms, more than 0, at most a maximum. */
public final class LongPollWait {

    private LongPollWait() {
    }

    /** @throws InvalidRequestException naming {@code wait} when it is not such a duration */
    public static Duration parse(String wait, Duration max) {
        Duration duration;
        try {
            duration = DurationStyle.detectAndParse(wait);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("wait", "'" + wait + "' is not a duration: write e.g. 30s or 500ms");
        }
        if (duration.isNegative() || duration.isZero() || duration.compareTo(max) > 0) {
            throw new InvalidRequestException("wait", "must be more than 0 and at most " + max.toSeconds() + "s");
        }
        return duration;
    }
}
