package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.InternalAuthenticationServiceException;

/** A named account whose row cannot be read is the database's failure, not the client's credentials. */
class AccountLookupFailureTest {

    private final ApiProblemHandler handler =
            new ApiProblemHandler(new DatabaseRequestProperties(100, Duration.ofSeconds(5)));
    private final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/hosts");

    @Test
    void aLookupThatFindsNoDatabaseIs503WithRetryAfter() {
        var failure = new InternalAuthenticationServiceException("lookup failed",
                new CannotGetJdbcConnectionException("no connection",
                        new SQLTransientConnectionException("Connection is not available, request timed out")));

        var response = handler.unauthenticated(failure, request);

        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("5");
    }

    @Test
    void wrongCredentialsStay401() {
        assertThat(handler.unauthenticated(new BadCredentialsException("bad"), request).getStatusCode().value())
                .isEqualTo(401);
    }
}
