package io.edp.manager.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Slows down password guessing. Failed logins — HTTP Basic on the API, the operations page's sign-in form — are
 * counted per client address and user name, in one count for both ways in: after
 * {@link LoginThrottleProperties#freeFailures()} in a row, that pair is answered 429 with {@code Retry-After},
 * without its password being checked, for a delay that doubles with each further failure; a success clears it.
 * Per pair, because automation, tests and agents all come from 127.0.0.1: one script guessing wrong must not lock
 * another user out, nor the same user out of other machines. Every failure is logged with user and address, never
 * with the password.
 */
final class LoginThrottle extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(LoginThrottle.class);
    /** A pair's count is forgotten this long after its last failure. */
    private static final Duration FORGET_AFTER = Duration.ofMinutes(15);
    /** Bounds the memory a flood of invented user names can take. */
    private static final int MAX_CLIENTS = 10_000;
    /** The operations page's sign-in form (Spring Security's form login). */
    static final String FORM_LOGIN = "/login";
    /** Compiled once: every request with Basic credentials passes its user name through it. */
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    private record Client(String address, String user) {
    }

    private record Failures(int count, long lastMillis, long blockedUntilMillis) {
    }

    private final LoginThrottleProperties properties;
    private final InstantSource clock;
    private final HandlerExceptionResolver problems;
    private final ConcurrentHashMap<Client, Failures> failures = new ConcurrentHashMap<>();

    LoginThrottle(LoginThrottleProperties properties, InstantSource clock, HandlerExceptionResolver problems) {
        this.properties = properties;
        this.clock = clock;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        boolean form = isFormLogin(request);
        var user = form ? formUser(request) : basicUser(request);
        if (user.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        var client = new Client(request.getRemoteAddr(), user.get());
        var seen = failures.get(client);
        long now = clock.millis();
        if (seen != null && now < seen.blockedUntilMillis()) {
            long seconds = Math.max(1, (seen.blockedUntilMillis() - now + 999) / 1000);
            problems.resolveException(request, response, null, new TooManyFailedLogins(seconds));
            return;
        }
        chain.doFilter(request, response);
        if (form ? formLoginFailed(response) : response.getStatus() == HttpStatus.UNAUTHORIZED.value()) {
            failed(client, now);
        } else if (seen != null) {
            failures.remove(client);
        }
    }

    private void failed(Client client, long now) {
        if (failures.size() >= MAX_CLIENTS) {
            failures.values().removeIf(f -> f.blockedUntilMillis() <= now);
        }
        var after = failures.compute(client, (key, before) -> {
            int count = before == null || now - before.lastMillis() > FORGET_AFTER.toMillis() ? 1 : before.count() + 1;
            return new Failures(count, now, now + properties.delayAfter(count).toMillis());
        });
        if (after.blockedUntilMillis() > now) {
            log.warn("Failed login of user '{}' from {} ({} in a row): further logins of this user from this address "
                    + "wait {} ms", client.user(), client.address(), after.count(), after.blockedUntilMillis() - now);
        } else {
            log.warn("Failed login of user '{}' from {} ({} in a row)", client.user(), client.address(), after.count());
        }
    }

    private static boolean isFormLogin(HttpServletRequest request) {
        return HttpMethod.POST.matches(request.getMethod())
                && request.getRequestURI().equals(request.getContextPath() + FORM_LOGIN);
    }

    /** The form's failure is a redirect back to it with {@code ?error}; a success goes to the page. */
    private static boolean formLoginFailed(HttpServletResponse response) {
        String location = response.getHeader(HttpHeaders.LOCATION);
        return location != null && location.contains(FORM_LOGIN + "?error");
    }

    private static Optional<String> formUser(HttpServletRequest request) {
        var user = request.getParameter("username");
        return user == null ? Optional.empty() : Optional.of(safe(user));
    }

    /** The user name of a Basic Authorization header, made safe to log; empty without one. */
    private static Optional<String> basicUser(HttpServletRequest request) {
        var header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        String credentials;
        try {
            credentials = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // not Base64: Spring Security answers 401 without a user to count it for
        }
        int colon = credentials.indexOf(':');
        return Optional.of(safe(colon < 0 ? credentials : credentials.substring(0, colon)));
    }

    /** User names match case-insensitively; a crafted one must not forge log lines. */
    private static String safe(String user) {
        return CONTROL.matcher(user.toLowerCase(Locale.ROOT)).replaceAll("?");
    }

    /** 429 problem details with the seconds to wait, through the same handlers as every other error. */
    static final class TooManyFailedLogins extends ErrorResponseException {

        TooManyFailedLogins(long retryAfterSeconds) {
            super(HttpStatus.TOO_MANY_REQUESTS, ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS,
                    "Too many failed logins of this user from your address: try again in " + retryAfterSeconds
                            + " s (Retry-After), with the right password."), null);
            getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        }
    }
}
