package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** A body that declares no length (chunked) is cut off as soon as it passes the limit, not read to its end. */
class RequestBodyLimitFilterTest {

    private static final int LIMIT = 1024;

    /** A chunked request: the body is there, its length is not declared. */
    private static MockHttpServletRequest chunked(int bytes) {
        var request = new MockHttpServletRequest("POST", "/api/v1/hosts") {
            @Override
            public long getContentLengthLong() {
                return -1;
            }
        };
        request.setContent(new byte[bytes]);
        return request;
    }

    /** Reads the whole body, as the JSON parser would, and records how much it got. */
    private static final class Reader extends HttpServlet {
        long read;

        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response)
                throws java.io.IOException {
            read = request.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        }
    }

    @Test
    void aChunkedBodyOverTheLimitFailsWhileBeingRead() {
        var filter = new RequestBodyLimitFilter(LIMIT, (request, response, handler, error) -> null);
        var reader = new Reader();

        assertThatThrownBy(() -> filter.doFilter(chunked(64 * LIMIT), new MockHttpServletResponse(),
                new MockFilterChain(reader))).isInstanceOf(RequestBodyTooLargeException.class);
    }

    @Test
    void aChunkedBodyWithinTheLimitIsReadWhole() throws Exception {
        var filter = new RequestBodyLimitFilter(LIMIT, (request, response, handler, error) -> null);
        var reader = new Reader();

        filter.doFilter(chunked(LIMIT), new MockHttpServletResponse(), new MockFilterChain(reader));

        assertThat(reader.read).isEqualTo(LIMIT);
    }
}
