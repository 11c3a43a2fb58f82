package io.edp.manager.security;

import java.time.InstantSource;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * HTTP Basic, stateless. {@code /api/**} needs an account: viewers may read, operators may do everything.
 * Health probes and the Prometheus endpoint stay open because kubelets and scrapers carry no credentials and they
 * reveal no inventory; the OpenAPI document and Swagger UI stay open because the contract is public and Swagger UI's
 * "Authorize" button supplies the credentials for the calls it makes.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AccountProperties.class)
class SecurityConfiguration {

    @Bean
    PasswordEncoder passwordEncoder() {
        return new VerifiedPasswordCache(PasswordEncoderFactories.createDelegatingPasswordEncoder(),
                VerifiedPasswordCache.DEFAULT_TTL, InstantSource.system());
    }

    @Bean
    InMemoryUserDetailsManager userDetailsService(AccountProperties properties, PasswordEncoder encoder) {
        return Accounts.userDetails(properties, encoder);
    }

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http,
                                    @Qualifier("handlerExceptionResolver") HandlerExceptionResolver resolver) {
        // 401 and 403 are rendered by the same problem-details handler as every other error
        var problems = new ProblemSecurityHandler(resolver);
        return http
                .csrf(csrf -> csrf.disable()) // no cookies or sessions: nothing for CSRF to ride on
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .httpBasic(basic -> basic.authenticationEntryPoint(problems))
                .exceptionHandling(errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/prometheus").permitAll()
                        .requestMatchers("/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml",
                                "/swagger-ui.html", "/swagger-ui/**").permitAll()
                        .requestMatchers(HttpMethod.GET, "/api/**").hasAnyRole(Accounts.VIEWER, Accounts.OPERATOR)
                        .requestMatchers(HttpMethod.HEAD, "/api/**").hasAnyRole(Accounts.VIEWER, Accounts.OPERATOR)
                        .requestMatchers("/api/**").hasRole(Accounts.OPERATOR)
                        .requestMatchers("/error").permitAll()
                        .anyRequest().authenticated())
                .build();
    }
}
