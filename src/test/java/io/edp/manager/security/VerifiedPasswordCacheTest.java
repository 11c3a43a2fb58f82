package io.edp.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;

class VerifiedPasswordCacheTest {

    private final PasswordEncoder real = PasswordEncoderFactories.createDelegatingPasswordEncoder();
    private final AtomicInteger fullChecks = new AtomicInteger();
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-02T12:00:00Z"));
    private final VerifiedPasswordCache cache = new VerifiedPasswordCache(counting(real), Duration.ofMinutes(5),
            now::get);
    private final String hash = real.encode("s3cret");

    @Test
    void aRepeatedCorrectPasswordIsCheckedInFullOnlyOnce() {
        assertThat(cache.matches("s3cret", hash)).isTrue();
        assertThat(cache.matches("s3cret", hash)).isTrue();
        assertThat(cache.matches("s3cret", hash)).isTrue();

        assertThat(fullChecks).hasValue(1);
    }

    @Test
    void aWrongPasswordAlwaysTakesTheFullCheckAndFails() {
        cache.matches("s3cret", hash);

        assertThat(cache.matches("guess", hash)).isFalse();
        assertThat(cache.matches("guess", hash)).isFalse();
        assertThat(fullChecks).hasValue(3);
    }

    @Test
    void aVerificationIsForgottenAfterItsTimeToLive() {
        cache.matches("s3cret", hash);
        now.set(now.get().plus(Duration.ofMinutes(5)));

        assertThat(cache.matches("s3cret", hash)).isTrue();
        assertThat(fullChecks).hasValue(2);
    }

    @Test
    void aChangedStoredHashIsCheckedInFull() {
        cache.matches("s3cret", hash);

        assertThat(cache.matches("s3cret", real.encode("other"))).isFalse();
        assertThat(fullChecks).hasValue(2);
    }

    private PasswordEncoder counting(PasswordEncoder delegate) {
        return new PasswordEncoder() {
            @Override
            public String encode(CharSequence rawPassword) {
                return delegate.encode(rawPassword);
            }

            @Override
            public boolean matches(CharSequence rawPassword, String encodedPassword) {
                fullChecks.incrementAndGet();
                return delegate.matches(rawPassword, encodedPassword);
            }
        };
    }
}
