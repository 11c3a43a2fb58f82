package io.edp.manager.api;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Spring MVC's request mappings, with each mapping's path tried before its other conditions. A path with a variable
 * ({@code /hosts/{id}/stats/flow-cache}) has no direct match, so Spring tries every mapping of the application in
 * turn, and a mapping checks its method, parameters, headers and media types first, each through the request's
 * half a dozen wrappers: 12 % of a statistics read (docs/benchmarks.md). Most mappings fail on the path's first
 * literal segments, so trying it first refuses them at a fraction of that; a mapping whose path matches is then
 * matched exactly as Spring does (a mapping matches only if every condition, its path's included, does).
 */
class PathFirstHandlerMapping extends RequestMappingHandlerMapping {

    @Override
    protected RequestMappingInfo getMatchingMapping(RequestMappingInfo info, HttpServletRequest request) {
        var paths = info.getPathPatternsCondition();
        if (paths != null && paths.getMatchingCondition(request) == null) {
            return null;
        }
        return super.getMatchingMapping(info, request);
    }
}
