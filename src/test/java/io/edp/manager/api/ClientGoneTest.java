package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;

import org.apache.catalina.connector.ClientAbortException;
import org.junit.jupiter.api.Test;
import org.springframework.http.converter.HttpMessageNotWritableException;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * A client that closed its connection before its answer was written gets no answer and costs no error in the log
 * (a load generator ending its run left a stack trace per connection); any other I/O failure is still a 500.
 */
class ClientGoneTest {

    private final ApiProblemHandler handler =
            new ApiProblemHandler(new DatabaseRequestProperties(100, Duration.ofSeconds(5)));
    private final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/hosts");

    @Test
    void aClosedConnectionIsNotAnswered() throws Exception {
        assertThat(handler.unexpected(new ClientAbortException(new IOException("Broken pipe")), request)).isNull();
        assertThat(handler.unexpected(new IOException("Connection reset by peer"), request)).isNull();
        // as Spring MVC reports a JSON answer that could not be written (its first bytes are usually sent already)
        var notWritten = new HttpMessageNotWritableException("Could not write JSON: ServletOutputStream failed to "
                + "write: java.io.IOException: Broken pipe", new IOException("Broken pipe"));
        var web = new ServletWebRequest(request, new MockHttpServletResponse());
        assertThat(handler.handleException(notWritten, web)).isNull();
    }

    @Test
    void anotherIoFailureIs500() throws Exception {
        assertThat(handler.unexpected(new IOException("No space left on device"), request).getStatusCode().value())
                .isEqualTo(500);
        var notWritable = new HttpMessageNotWritableException("No serializer", new IllegalStateException("cycle"));
        assertThat(handler.handleException(notWritable, new ServletWebRequest(request, new MockHttpServletResponse()))
                .getStatusCode().value()).isEqualTo(500);
    }
}
