package io.edp.manager.security;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import io.edp.manager.agent.AgentPrincipal;
import io.edp.manager.agent.AgentTokens;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.InternalAuthenticationServiceException;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.transaction.TransactionException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code Authorization: Bearer <agent token>} as that host's agent (role AGENT), which the API chain
 * lets reach its own host's agent endpoints and nothing else. An unknown token is a 401 at once: it never falls
 * through to another kind of login. While the database cannot be read, 503 (Retry-After), as for accounts.
 */
final class AgentTokenFilter extends OncePerRequestFilter {

    static final String ROLE = "AGENT";
    private static final String BEARER = "Bearer ";

    private final SecurityContextRepository contexts = new RequestAttributeSecurityContextRepository();
    private final AgentTokens tokens;
    private final AuthenticationEntryPoint entryPoint;

    AgentTokenFilter(AgentTokens tokens, AuthenticationEntryPoint entryPoint) {
        this.tokens = tokens;
        this.entryPoint = entryPoint;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            chain.doFilter(request, response);
            return;
        }
        Optional<AgentPrincipal> agent;
        try {
            agent = tokens.authenticate(header.substring(BEARER.length()).strip());
        } catch (DataAccessException | TransactionException e) {
            // as for accounts: 503 with Retry-After while the database is away (the agent backs off), not a 500
            entryPoint.commence(request, response, new InternalAuthenticationServiceException(e.getMessage(), e));
            return;
        }
        if (agent.isEmpty()) {
            entryPoint.commence(request, response, new BadCredentialsException("Unknown or replaced agent token"));
            return;
        }
        var authentication = new PreAuthenticatedAuthenticationToken(agent.get(), null,
                List.of(new SimpleGrantedAuthority("ROLE_" + ROLE)));
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(authentication);
        SecurityContextHolder.setContext(context);
        // as HTTP Basic does: a long poll's async dispatch, which skips this filter, finds the agent there
        contexts.saveContext(context, request, response);
        chain.doFilter(request, response);
    }

    /** Whether the request is an agent's on the path of its own host. */
    static boolean ownHost(Object principal, String hostName) {
        return principal instanceof AgentPrincipal agent && agent.hostName().equals(hostName);
    }
}
