package io.edp.manager.realization;

import java.io.IOException;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.edp.manager.api.DryRun;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.IntegerSchema;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Answers every successful write that changes a host's desired state — the host itself, its EDP configuration,
 * pNICs, VMs and vNICs — with the host's desired generation after it, in the {@value #HEADER} header: the
 * generation to wait for ({@code GET /hosts/{id}/realization?generation=N&wait=30s}). The write has committed
 * when the response is complete, so the response is held until the generation is read. A write that changed
 * nothing (an identical PUT) names the generation already desired.
 */
@Component
class DesiredGenerationHeader extends OncePerRequestFilter implements GlobalOpenApiCustomizer {

    static final String HEADER = "EDP-Generation";
    /** A host (POST on the collection, PUT/PATCH on one) or what it holds; not traffic, statistics or realization. */
    private static final Pattern HOST_WRITE = Pattern.compile(
            "/api/v1/hosts(?:/(?<host>[0-9a-fA-F-]{36})(?:/(?:edp|pnics|vms)(?:/[^/]+)*)?)?/?");
    private static final Pattern CREATED_HOST = Pattern.compile(".*/api/v1/hosts/(?<host>[0-9a-fA-F-]{36})");

    private final RealizationRepository realizations;

    DesiredGenerationHeader(RealizationRepository realizations) {
        this.realizations = realizations;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        HttpMethod method = HttpMethod.valueOf(request.getMethod());
        return !(method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH
                || method == HttpMethod.DELETE) || !HOST_WRITE.matcher(request.getRequestURI()).matches();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var held = new ContentCachingResponseWrapper(response);
        try {
            chain.doFilter(request, held);
            if (held.getStatus() / 100 == 2 && !setByDryRun(request, held)) {
                hostOf(request, held).flatMap(realizations::desiredGeneration)
                        .ifPresent(generation -> held.setHeader(HEADER, Long.toString(generation)));
            }
        } finally {
            held.copyBodyToResponse();
        }
    }

    /**
     * A dry run has set the generation it would leave; without one it changed no generation (the current one holds),
     * unless it deleted the host itself, which then has none.
     */
    private static boolean setByDryRun(HttpServletRequest request, HttpServletResponse response) {
        return response.getHeader(DryRun.HEADER) != null
                && (response.getHeader(HEADER) != null || HttpMethod.DELETE.matches(request.getMethod()));
    }

    /** The host the write was about: in its path, or for a new host in its Location; none for a deleted host. */
    private static Optional<UUID> hostOf(HttpServletRequest request, HttpServletResponse response) {
        Matcher path = HOST_WRITE.matcher(request.getRequestURI());
        if (path.matches() && path.group("host") != null) {
            return Optional.of(UUID.fromString(path.group("host")));
        }
        String location = response.getHeader("Location");
        Matcher created = location == null ? null : CREATED_HOST.matcher(location);
        return created != null && created.matches()
                ? Optional.of(UUID.fromString(created.group("host"))) : Optional.empty();
    }

    /** Documents the header on the 2xx answers of those writes. */
    @Override
    public void customise(OpenAPI openApi) {
        openApi.getPaths().forEach((path, item) -> {
            if (HOST_WRITE.matcher(path.replace("{hostId}", "00000000-0000-0000-0000-000000000000")).matches()) {
                item.readOperationsMap().forEach((method, operation) -> {
                    if (method != PathItem.HttpMethod.GET) {
                        operation.getResponses().forEach((code, answer) -> {
                            if (code.startsWith("2") && !(path.equals("/api/v1/hosts/{hostId}")
                                    && method == PathItem.HttpMethod.DELETE)) {
                                answer.addHeaderObject(HEADER, new Header().schema(new IntegerSchema().format("int64"))
                                        .description("The host's desired generation after this write: wait for it "
                                                + "with GET /api/v1/hosts/{hostId}/realization?generation=N&wait=30s"));
                            }
                        });
                    }
                });
            }
        });
    }
}
