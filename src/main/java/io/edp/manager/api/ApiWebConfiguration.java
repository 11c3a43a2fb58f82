package io.edp.manager.api;

import java.util.List;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DatabaseRequestProperties.class)
class ApiWebConfiguration implements WebMvcConfigurer {

    private final DatabaseRequestProperties database;

    ApiWebConfiguration(DatabaseRequestProperties database) {
        this.database = database;
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new IfMatchArgumentResolver());
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new DatabaseRequestLimit(database.concurrentRequests())).addPathPatterns("/api/**");
    }
}
