package io.edp.manager.api;

import java.util.Arrays;

import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * The {@code If-Match} header of a write. Absent means unconditional; otherwise one of its entity tags must equal the
 * resource's current ETag (strong comparison, RFC 9110 §13.1.1) or be {@code *}, else the write fails with 412.
 */
public record IfMatch(String header) {

    /** Request attribute: the version this check saw, which the audit trail records as the ETag before the write. */
    public static final String CHECKED_VERSION = IfMatch.class.getName() + ".checkedVersion";

    public void check(long currentVersion) {
        var request = RequestContextHolder.getRequestAttributes();
        if (request != null) {
            request.setAttribute(CHECKED_VERSION, currentVersion, RequestAttributes.SCOPE_REQUEST);
        }
        if (header == null || header.isBlank()) {
            return;
        }
        var current = ETags.of(currentVersion);
        var matches = Arrays.stream(header.split(","))
                .map(String::strip)
                .anyMatch(tag -> tag.equals("*") || tag.equals(current));
        if (!matches) {
            throw new PreconditionFailedException("If-Match " + header + " does not match the current version "
                    + current + "; fetch the resource again and retry with its ETag");
        }
    }
}
