package io.edp.manager.api;

import java.io.IOException;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Caps every request body, before anything reads it: a declared length over the limit is answered at once, a body
 * without one (chunked) is cut off as soon as it passes the limit. Either way the answer is a 413 problem, so a
 * client cannot hold a request thread and a transaction while it sends megabytes. The one exception is a capture
 * file an agent uploads ({@link #AGENT_CAPTURE_FILE}): the capture's own limits bound it where it is read.
 */
class RequestBodyLimitFilter extends OncePerRequestFilter {

    /** {@code PUT /api/v1/agent/hosts/{hostName}/captures/{captureId}/file}. */
    static final Pattern AGENT_CAPTURE_FILE = Pattern.compile(
            Pattern.quote(AgentReports.PATH) + "hosts/[^/]+/captures/[^/]+/file");

    private final long limit;
    private final HandlerExceptionResolver problems;

    RequestBodyLimitFilter(long limit, HandlerExceptionResolver problems) {
        this.limit = limit;
        this.problems = problems;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return AGENT_CAPTURE_FILE.matcher(request.getRequestURI()).matches();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > limit) {
            problems.resolveException(request, response, null, new RequestBodyTooLargeException(limit));
            return;
        }
        chain.doFilter(new LimitedRequest(request, limit), response);
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {

        private final long limit;
        private ServletInputStream limited;

        LimitedRequest(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (limited == null) {
                limited = new LimitedInputStream(super.getInputStream(), limit);
            }
            return limited;
        }
    }

    private static final class LimitedInputStream extends ServletInputStream {

        private final ServletInputStream body;
        private final long limit;
        private long read;

        LimitedInputStream(ServletInputStream body, long limit) {
            this.body = body;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = body.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = body.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int bytes) throws RequestBodyTooLargeException {
            read += bytes;
            if (read > limit) {
                throw new RequestBodyTooLargeException(limit);
            }
        }

        @Override
        public boolean isFinished() {
            return body.isFinished();
        }

        @Override
        public boolean isReady() {
            return body.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            body.setReadListener(listener);
        }
    }
}
