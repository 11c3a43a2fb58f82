package io.edp.manager.agent;

import java.io.IOException;
import java.time.Instant;
import java.util.UUID;
import java.util.regex.Pattern;

import io.edp.manager.engines.HostEngines;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Says how fresh a statistics answer of a host placed AGENT is, in headers beside the unchanged body:
 * {@value #TAKEN_AT} (when the agent read its engine) and {@value #STALE} ({@code true} when that is longer ago than
 * {@code edp.agent.stats-stale-after}: the agent stopped reporting). An embedded host's statistics are read live and
 * get neither; looking it up costs no database read. An agent host's snapshot read here is kept for the request
 * ({@link AgentEngines#engine}), so the answer does not read it again.
 */
@Component
class AgentStatsFreshness extends OncePerRequestFilter {

    static final String TAKEN_AT = "EDP-Stats-Taken-At";
    static final String STALE = "EDP-Stats-Stale";
    private static final Pattern STATS = Pattern.compile("/api/v1/hosts/(?<host>[0-9a-fA-F-]{36})/stats(/.*)?");

    private final HostEngines engines;

    AgentStatsFreshness(HostEngines engines) {
        this.engines = engines;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getMethod().equals("GET") || !STATS.matcher(request.getRequestURI()).matches();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var matcher = STATS.matcher(request.getRequestURI());
        if (matcher.matches()) {
            try {
                engines.engine(UUID.fromString(matcher.group("host"))).ifPresent(engine -> {
                    if (engine instanceof AgentEngine agent) {
                        response.setHeader(TAKEN_AT, agent.takenAt().toString());
                        response.setHeader(STALE, Boolean.toString(agent.stale(Instant.now())));
                    }
                });
            } catch (RuntimeException e) {
                // no headers (the database is away, or the id is not one): the request answers for itself
            }
        }
        chain.doFilter(request, response);
    }
}
