package io.edp.manager.security;

import java.time.InstantSource;

import io.edp.manager.account.AccountDirectory;
import io.edp.manager.agent.AgentTokens;
import io.edp.manager.api.ReadOnlyPost;
import io.edp.manager.audit.AuditTrail;
import io.edp.manager.audit.WriteAuditFilter;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.authorization.AuthorityAuthorizationManager;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.ExceptionTranslationFilter;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * HTTP Basic, stateless, failed logins throttled ({@link LoginThrottle}). {@code /api/**} needs an account: viewers
 * may read, operators may do everything, except the agents' endpoints, which only an agent token reaches, each its
 * own host's ({@link AgentTokenFilter}). Health probes stay open because kubelets carry no credentials (they see
 * UP or DOWN, details only with an account); the Prometheus endpoint names every host, so it needs an account
 * unless {@code edp.metrics.public} opens it; the OpenAPI document and Swagger UI stay open because the contract is
 * public and Swagger UI's "Authorize" button supplies the credentials for the calls it makes.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({AccountProperties.class, LoginThrottleProperties.class, MetricsProperties.class})
class SecurityConfiguration {

    @Bean
    PasswordEncoder passwordEncoder() {
        return new VerifiedPasswordCache(PasswordEncoderFactories.createDelegatingPasswordEncoder(),
                VerifiedPasswordCache.DEFAULT_TTL, InstantSource.system());
    }

    /**
     * Spring Security observes nothing: it timed each of a dozen filters of every request, about a tenth of the
     * CPU of a statistics read (docs/benchmarks.md), into metrics nothing reads; http_server_requests still times
     * every request.
     */
    @Bean
    SecurityObservationSettings noSecurityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    /** The bootstrap accounts of the environment first (they work while the database is away), then named ones. */
    @Bean
    UserDetailsService userDetailsService(AccountProperties properties, PasswordEncoder encoder,
                                          AccountDirectory named) {
        var bootstrap = Accounts.userDetails(properties, encoder);
        return name -> bootstrap.userExists(name) ? bootstrap.loadUserByUsername(name)
                : named.loadUserByUsername(name);
    }

    /** One count of failed logins for both security chains (the API's Basic and the page's form). */
    @Bean
    LoginThrottle loginThrottle(LoginThrottleProperties logins,
                                @Qualifier("handlerExceptionResolver") HandlerExceptionResolver resolver) {
        return new LoginThrottle(logins, InstantSource.system(), resolver);
    }

    /** The throttle runs inside the security chains only, not a second time as a servlet filter of its own. */
    @Bean
    FilterRegistrationBean<LoginThrottle> loginThrottleOnlyInTheSecurityChains(LoginThrottle throttle) {
        var registration = new FilterRegistrationBean<>(throttle);
        registration.setEnabled(false);
        return registration;
    }

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, AuditTrail audit, LoginThrottle throttle,
                                    MetricsProperties metrics, AgentTokens agentTokens,
                                    @Qualifier("handlerExceptionResolver") HandlerExceptionResolver resolver) {
        // 401 and 403 are rendered by the same problem-details handler as every other error
        var problems = new ProblemSecurityHandler(resolver);
        return http
                .csrf(csrf -> csrf.disable()) // no cookies or sessions: nothing for CSRF to ride on
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .httpBasic(basic -> basic.authenticationEntryPoint(problems))
                .addFilterBefore(throttle, BasicAuthenticationFilter.class)
                .addFilterBefore(new AgentTokenFilter(agentTokens, problems), BasicAuthenticationFilter.class)
                .exceptionHandling(errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                // after authentication, around authorization: failed writes, a viewer's 403 included, are audited
                .addFilterBefore(new WriteAuditFilter(audit), ExceptionTranslationFilter.class)
                .authorizeHttpRequests(requests -> requests
                        // probes carry no credentials; health shows its details only to an account (application.yaml)
                        .requestMatchers("/actuator/health", "/actuator/health/**").permitAll()
                        .requestMatchers("/actuator/prometheus").access(metrics.open()
                                ? (authentication, context) -> new AuthorizationDecision(true)
                                : AuthorityAuthorizationManager.hasAnyRole(Accounts.VIEWER, Accounts.OPERATOR))
                        .requestMatchers("/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml",
                                "/swagger-ui.html", "/swagger-ui/**").permitAll()
                        // an agent token reaches its own host's agent endpoints; no account reaches them
                        .requestMatchers("/api/v1/agent/hosts/{hostName}/**").access((authentication, context) ->
                                new AuthorizationDecision(AgentTokenFilter.ownHost(
                                        authentication.get().getPrincipal(), context.getVariables().get("hostName"))))
                        .requestMatchers("/api/v1/agent/**").denyAll()
                        // who may log in, and who did what: operators only, reading included
                        .requestMatchers("/api/v1/accounts", "/api/v1/accounts/**", "/api/v1/audit-events")
                        .hasRole(Accounts.OPERATOR)
                        .requestMatchers(HttpMethod.GET, "/api/**").hasAnyRole(Accounts.VIEWER, Accounts.OPERATOR)
                        .requestMatchers(HttpMethod.HEAD, "/api/**").hasAnyRole(Accounts.VIEWER, Accounts.OPERATOR)
                        .requestMatchers(HttpMethod.POST, ReadOnlyPost.Paths.PATTERNS)
                        .hasAnyRole(Accounts.VIEWER, Accounts.OPERATOR)
                        .requestMatchers("/api/**").hasRole(Accounts.OPERATOR)
                        .requestMatchers("/error").permitAll()
                        .anyRequest().authenticated())
                .build();
    }
}
