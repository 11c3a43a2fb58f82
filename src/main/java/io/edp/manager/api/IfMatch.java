package io.edp.manager.api;

import java.util.Arrays;

/**
 * The {@code If-Match} header of a write. Absent means unconditional; otherwise one of its entity tags must equal the
 * resource's current ETag (strong comparison, RFC 9110 §13.1.1) or be {@code *}, else the write fails with 412.
 */
public record IfMatch(String header) {

    public void check(long currentVersion) {
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
