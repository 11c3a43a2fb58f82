package io.edp.manager.api;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Refuses query parameters an operation does not take (and values with control characters), as unknown body fields are
 * refused: {@code ?nmae=esx-01} would otherwise list every host as if no filter were asked for. The names an operation
 * takes are its {@code @RequestParam}s and the components of its {@code @ParameterObject} records (paging), found once
 * per handler. Only the API's own controllers are checked.
 */
@Configuration(proxyBeanMethods = false)
class StrictQueryParameters implements HandlerInterceptor, WebMvcConfigurer {

    private static final String API_PACKAGE = "io.edp.manager";

    private final Map<HandlerMethod, Set<String>> accepted = new ConcurrentHashMap<>();
    private final DefaultParameterNameDiscoverer names = new DefaultParameterNameDiscoverer();

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod method) || request.getQueryString() == null
                || request.getDispatcherType() == DispatcherType.ERROR
                || !method.getBeanType().getPackageName().startsWith(API_PACKAGE)) {
            return true;
        }
        Set<String> takes = accepted.computeIfAbsent(method, this::queryParameters);
        List<FieldProblem> unknown = new ArrayList<>();
        for (String name : Collections.list(request.getParameterNames())) {
            if (!takes.contains(name)) {
                unknown.add(new FieldProblem(name, "unknown query parameter; this operation takes "
                        + (takes.isEmpty() ? "none" : takes.toString())));
            } else if (Arrays.stream(request.getParameterValues(name)).anyMatch(StrictQueryParameters::hasControl)) {
                unknown.add(new FieldProblem(name, "must not contain control characters"));
            }
        }
        if (!unknown.isEmpty()) {
            throw new InvalidRequestException(unknown);
        }
        return true;
    }

    private static boolean hasControl(String value) {
        return value.chars().anyMatch(Character::isISOControl);
    }

    private Set<String> queryParameters(HandlerMethod method) {
        SortedSet<String> takes = new TreeSet<>();
        for (MethodParameter parameter : method.getMethodParameters()) {
            parameter.initParameterNameDiscovery(names);
            RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
            if (param != null) {
                takes.add(StringUtils.hasText(param.name()) ? param.name() : parameter.getParameterName());
            } else if (parameter.hasParameterAnnotation(ParameterObject.class)
                    && parameter.getParameterType().isRecord()) {
                Arrays.stream(parameter.getParameterType().getRecordComponents())
                        .forEach(component -> takes.add(component.getName()));
            }
        }
        if (DryRun.takenBy(method.getMethod(), method.getBeanType())) {
            takes.add(DryRun.PARAMETER);
        }
        return Collections.unmodifiableSortedSet(takes);
    }
}
