package io.edp.manager.api;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Gives a handler's {@link IfMatch} parameter the request's {@code If-Match} header. */
class IfMatchArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == IfMatch.class;
    }

    @Override
    public IfMatch resolveArgument(MethodParameter parameter, ModelAndViewContainer container,
                                   NativeWebRequest request, WebDataBinderFactory binderFactory) {
        return new IfMatch(request.getHeader(HttpHeaders.IF_MATCH));
    }
}
