package io.edp.manager.audit;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Records the writes that {@link AuditedWrites} did not: failed ones (4xx/5xx, a viewer's 403 included), whose
 * change was rolled back, and those of controllers without a database. It sits in the security chain after
 * authentication, so it knows the account; requests without a valid one (401) are not recorded (the login
 * throttle's log has them). The event is appended after the response was sent, in a transaction of its own; if
 * that fails (the database is away), the failure is logged and the response is not affected.
 */
public final class WriteAuditFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(WriteAuditFilter.class);

    private final AuditTrail trail;

    public WriteAuditFilter(AuditTrail trail) {
        this.trail = trail;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !AuditedWrite.isWrite(request);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var authentication = SecurityContextHolder.getContext().getAuthentication();
        int status;
        try {
            chain.doFilter(request, response);
            status = response.getStatus();
            response.flushBuffer(); // the client has its answer before we talk to the database again
        } catch (IOException | ServletException | RuntimeException e) {
            status = 500; // what the container will answer
            record(request, authentication, status);
            throw e;
        }
        record(request, authentication, status);
    }

    private void record(HttpServletRequest request, Authentication authentication, int status) {
        if (request.getAttribute(AuditedWrites.RECORDED) != null || authentication == null
                || !authentication.isAuthenticated() || authentication instanceof AnonymousAuthenticationToken) {
            return;
        }
        try {
            trail.append(AuditedWrite.of(request, authentication.getName(), status, null, null));
        } catch (RuntimeException e) {
            log.warn("Audit event of {} {} by {} ({}) not recorded: {}", request.getMethod(), request.getRequestURI(),
                    authentication.getName(), status, e.toString());
        }
    }
}
