package io.edp.manager.security;

import io.edp.manager.audit.AuditTrail;
import io.edp.manager.audit.WriteAuditFilter;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.ExceptionTranslationFilter;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * The operations page ({@code /ui}): a browser signs in with a form and then carries a session cookie, since its
 * {@code EventSource} cannot send an Authorization header. This chain serves the page, the login and logout, and the
 * host API calls the page makes with its cookie (no Authorization header); CSRF protection is on for all of them,
 * because a cookie is what a forged request would ride on. Every other request, HTTP Basic ones included, goes to
 * the stateless API chain ({@link SecurityConfiguration}), which ignores the cookie.
 */
@Configuration(proxyBeanMethods = false)
class PageSecurityConfiguration {

    private static final String HOSTS = "/api/v1/hosts";
    /** The login form's styles, served by Spring Security with the form. */
    private static final String LOGIN_STYLES = "/default-ui.css";
    private static final String ICON = "/favicon.ico";

    @Bean
    @Order(1) // before the API chain, which takes every request
    SecurityFilterChain pageSecurity(HttpSecurity http, AuditTrail audit, LoginThrottle throttle,
                                     @Qualifier("handlerExceptionResolver") HandlerExceptionResolver resolver) {
        var problems = new ProblemSecurityHandler(resolver);
        RequestMatcher hostApi = request -> path(request).startsWith(HOSTS);
        return http
                .securityMatcher(PageSecurityConfiguration::pageOrCookieCall)
                .formLogin(form -> form.defaultSuccessUrl("/ui/", true))
                .addFilterBefore(throttle, UsernamePasswordAuthenticationFilter.class)
                .logout(logout -> logout.logoutSuccessUrl("/login?logout"))
                .exceptionHandling(errors -> errors
                        // an API call whose session expired gets a problem; a page, the login form
                        .defaultAuthenticationEntryPointFor(problems, hostApi)
                        .defaultAuthenticationEntryPointFor(new LoginUrlAuthenticationEntryPoint("/login"),
                                request -> true)
                        .accessDeniedHandler(problems))
                .addFilterBefore(new WriteAuditFilter(audit), ExceptionTranslationFilter.class)
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers("/login", LOGIN_STYLES, ICON, "/error").permitAll()
                        .requestMatchers(HttpMethod.GET, HOSTS, HOSTS + "/**")
                        .hasAnyRole(Accounts.VIEWER, Accounts.OPERATOR)
                        .requestMatchers(HOSTS, HOSTS + "/**").hasRole(Accounts.OPERATOR)
                        .anyRequest().hasAnyRole(Accounts.VIEWER, Accounts.OPERATOR))
                .build();
    }

    /** The page, its scripts, the login form, logout, and host API calls with a session cookie and no credentials. */
    private static boolean pageOrCookieCall(HttpServletRequest request) {
        String path = path(request);
        if (path.equals("/ui") || path.startsWith("/ui/") || path.startsWith("/webjars/uplot/")
                || path.equals("/login") || path.equals("/logout") || path.equals(LOGIN_STYLES)
                || path.equals(ICON)) {
            return true;
        }
        return path.startsWith(HOSTS) && request.getHeader(HttpHeaders.AUTHORIZATION) == null
                && request.getRequestedSessionId() != null;
    }

    private static String path(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }
}
