package io.edp.manager.api;

import java.util.List;

import jakarta.validation.Validator;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.WebMvcRegistrations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({DatabaseRequestProperties.class, RequestLimitProperties.class})
class ApiWebConfiguration implements WebMvcConfigurer {

    private final DatabaseRequestProperties database;
    private final Validator validator;

    ApiWebConfiguration(DatabaseRequestProperties database, Validator validator) {
        this.database = database;
        this.validator = validator;
    }

    /** Before every other filter (security included): an oversized body is refused before anyone reads it. */
    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimit(RequestLimitProperties limits,
            @Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
        var registration = new FilterRegistrationBean<>(
                new RequestBodyLimitFilter(limits.maxBodySize().toBytes(), problems));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** Handler lookup that tries a mapping's path first ({@link PathFirstHandlerMapping}). */
    @Bean
    WebMvcRegistrations pathFirstHandlerMapping() {
        return new WebMvcRegistrations() {
            @Override
            public RequestMappingHandlerMapping getRequestMappingHandlerMapping() {
                return new PathFirstHandlerMapping();
            }
        };
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new IfMatchArgumentResolver());
        resolvers.add(new QueryRecords(validator));
    }

    /**
     * Requests run on Tomcat's pool of platform threads (Boot's default, 200): on virtual threads (two carriers on
     * two cores) the read endpoints cost less CPU per request, but their p99 was about twice as long
     * (docs/benchmarks.md). The bulkhead keeps the requests that wait on the database to 100, and
     * {@code edp.agent.concurrent-requests} those that wait on an agent's answer to 50, so threads are left for the
     * probes and the statistics of embedded hosts.
     */
    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new DatabaseRequestLimit(database.concurrentRequests())).addPathPatterns("/api/**");
    }
}
