package io.edp.manager.audit;

import jakarta.servlet.http.HttpServletRequest;

import io.edp.manager.api.AgentReports;
import io.edp.manager.api.DryRun;
import io.edp.manager.api.ETags;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.ReadOnlyPost;

/**
 * One write request as the audit trail appends it.
 *
 * @param resource   the path of the resource written: the new resource's for a create, else the request's
 * @param etagBefore the version the write found (its If-Match check), null for a create or when it failed earlier
 * @param etagAfter  the ETag of the response, null for a delete or a failure
 * @param status     the HTTP status answered
 * @param dryRun     whether it was a dry run ({@code ?dryRun=true}), which changed nothing
 */
record AuditedWrite(String user, String method, String path, String resource, String etagBefore, String etagAfter,
                    int status, boolean dryRun) {

    static AuditedWrite of(HttpServletRequest request, String user, int status, String resource, String etagAfter) {
        var checked = request.getAttribute(IfMatch.CHECKED_VERSION);
        var path = request.getRequestURI();
        return new AuditedWrite(user, request.getMethod(), path, resource == null ? path : resource,
                checked instanceof Long version ? ETags.of(version) : null, etagAfter, status,
                "true".equals(request.getParameter(DryRun.PARAMETER)));
    }

    /**
     * Requests to the API that may change something: not a read-only POST (a packet trace), nor an agent's
     * report ({@link AgentReports}).
     */
    static boolean isWrite(HttpServletRequest request) {
        if (ReadOnlyPost.Paths.matches(request) || request.getRequestURI().startsWith(AgentReports.PATH)) {
            return false;
        }
        return switch (request.getMethod()) {
            case "POST", "PUT", "PATCH", "DELETE" -> request.getRequestURI().startsWith("/api/");
            default -> false;
        };
    }
}
