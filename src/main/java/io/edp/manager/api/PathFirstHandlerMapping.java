package io.edp.manager.api;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.server.PathContainer;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Spring MVC's request mappings, with each mapping's path tried before its other conditions. A path with a variable
 * ({@code /hosts/{id}/stats/flow-cache}) has no direct match, so Spring tries every mapping of the application in
 * turn, and a mapping checks its method, parameters, headers and media types first, each through the request's
 * half a dozen wrappers: 12 % of a statistics read (docs/benchmarks.md). Most mappings fail on the path's first
 * literal segments, so trying it first refuses them at a fraction of that; a mapping whose path matches is then
 * matched exactly as Spring does (a mapping matches only if every condition, its path's included, does). The parsed
 * path is read from the request once per lookup, not once per mapping through those wrappers.
 */
class PathFirstHandlerMapping extends RequestMappingHandlerMapping {

    /** The path within the application of the request this thread is looking up, while it does. */
    private final ThreadLocal<PathContainer> lookupPath = new ThreadLocal<>();

    @Override
    protected HandlerMethod lookupHandlerMethod(String path, HttpServletRequest request) throws Exception {
        // the lookup path Spring just parsed (initLookupPath), which the mappings' path conditions match against
        lookupPath.set(ServletRequestPathUtils.getParsedRequestPath(request).pathWithinApplication());
        try {
            return super.lookupHandlerMethod(path, request);
        } finally {
            lookupPath.remove();
        }
    }

    @Override
    protected RequestMappingInfo getMatchingMapping(RequestMappingInfo info, HttpServletRequest request) {
        var paths = info.getPathPatternsCondition();
        PathContainer path = lookupPath.get();
        if (paths != null && path != null && !matchesAny(paths.getPatterns(), path)) {
            return null;
        }
        return super.getMatchingMapping(info, request);
    }

    private static boolean matchesAny(Iterable<PathPattern> patterns, PathContainer path) {
        for (PathPattern pattern : patterns) {
            if (pattern.matches(path)) {
                return true;
            }
        }
        return false;
    }
}
