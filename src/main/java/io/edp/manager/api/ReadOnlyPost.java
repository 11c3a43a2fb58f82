package io.edp.manager.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Marks a POST handler that only computes an answer from a request body (a packet trace): it answers 200, viewers
 * may call it, and the audit trail does not record it as a write. The security chain and the audit filter run
 * before the handler is known, so they go by {@link Paths}, which lists the handlers' paths.
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface ReadOnlyPost {

    /** The paths of the {@link ReadOnlyPost} handlers. */
    final class Paths {

        /** As Spring Security request matchers take them. */
        public static final String[] PATTERNS = {"/api/v1/hosts/*/trace"};

        private static final Pattern PATHS = Pattern.compile("/api/v1/hosts/[^/]+/trace");

        private Paths() {
        }

        /** Whether {@code request} is a POST to a read-only handler. */
        public static boolean matches(HttpServletRequest request) {
            return "POST".equals(request.getMethod()) && PATHS.matcher(request.getRequestURI()).matches();
        }
    }
}
