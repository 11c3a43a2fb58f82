package io.edp.manager.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Base64;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Remembers for a short while that a presented password matched its stored hash. HTTP Basic sends the password
 * with every request, and checking it against a BCrypt hash costs tens of milliseconds of CPU by design; clients
 * that poll (Ansible {@code until:} loops on the realization status, scripts) would pay that on every call.
 * Only an HMAC of (hash, password) under a per-process random key is kept, never the password, and only for
 * matches: a wrong password always takes the full check.
 */
final class VerifiedPasswordCache implements PasswordEncoder {

    static final Duration DEFAULT_TTL = Duration.ofMinutes(5);
    private static final int MAX_ENTRIES = 1024;
    private static final String HMAC = "HmacSHA256";

    private final PasswordEncoder delegate;
    private final Duration ttl;
    private final InstantSource clock;
    /**
     * Keyed once and cloned per check: Mac.getInstance looks the provider up each time (a few percent of a statistics
     * read), and a Mac per thread would be one per request on the HTTP threads, which are virtual.
     */
    private final Mac keyed;
    private final ConcurrentHashMap<String, Long> verifiedUntilMillis = new ConcurrentHashMap<>();

    VerifiedPasswordCache(PasswordEncoder delegate, Duration ttl, InstantSource clock) {
        this.delegate = delegate;
        this.ttl = ttl;
        this.clock = clock;
        var secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        var key = new SecretKeySpec(secret, HMAC);
        try {
            this.keyed = Mac.getInstance(HMAC);
            keyed.init(key);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    @Override
    public String encode(CharSequence rawPassword) {
        return delegate.encode(rawPassword);
    }

    @Override
    public boolean matches(CharSequence rawPassword, String encodedPassword) {
        if (rawPassword == null || encodedPassword == null) {
            return delegate.matches(rawPassword, encodedPassword);
        }
        var entry = fingerprint(rawPassword, encodedPassword);
        long now = clock.millis();
        Long until = verifiedUntilMillis.get(entry);
        if (until != null && now < until) {
            return true;
        }
        boolean matches = delegate.matches(rawPassword, encodedPassword);
        if (matches) {
            if (verifiedUntilMillis.size() >= MAX_ENTRIES) {
                verifiedUntilMillis.clear(); // bounded: many distinct credentials only cost their full checks again
            }
            verifiedUntilMillis.put(entry, now + ttl.toMillis());
        }
        return matches;
    }

    @Override
    public boolean upgradeEncoding(String encodedPassword) {
        return delegate.upgradeEncoding(encodedPassword);
    }

    private String fingerprint(CharSequence rawPassword, String encodedPassword) {
        Mac mac;
        try {
            mac = (Mac) keyed.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's HmacSHA256 can be cloned", e);
        }
        mac.update(encodedPassword.getBytes(StandardCharsets.UTF_8));
        mac.update((byte) 0);
        return Base64.getEncoder().encodeToString(mac.doFinal(rawPassword.toString().getBytes(StandardCharsets.UTF_8)));
    }
}
