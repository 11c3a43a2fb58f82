package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.edp.manager.host.HostFilter;
import jakarta.validation.Valid;
import org.junit.jupiter.api.Test;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.format.support.DefaultFormattingConversionService;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.validation.beanvalidation.LocalValidatorFactoryBean;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.support.ConfigurableWebBindingInitializer;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.mvc.method.annotation.ServletModelAttributeMethodProcessor;
import org.springframework.web.servlet.mvc.method.annotation.ServletRequestDataBinderFactory;

/**
 * The direct binding of paging and filter records gives what Spring MVC's generic binding gives, for every query:
 * the same record, or the same field errors.
 */
class QueryRecordsTest {

    private static final List<String> QUERIES = List.of("", "page=2", "size=100", "page=0&size=1", "size=101",
            "size=0", "page=-1", "page=abc", "page=", "size=%20", "page=007", "page=0x10", "page=99999999999",
            "page=1&page=2", "sort=name", "sort=name,desc", "sort=name&sort=desc", "sort=", "sort=%20name%20",
            "name=esx-01", "name=", "name=a,b", "name=a&name=b", "name=%20esx", "label=%20rack&label=row",
            "name=" + "x".repeat(64), "label=rack", "label=rack=r12", "label=rack&label=row=2", "label=a,b", "label==x",
            "label=", "label=%0A",
            "name=esx&label=rack=r12&page=1&size=50&sort=managementAddress,desc");

    private final LocalValidatorFactoryBean validator = validator();
    private final HandlerMethodArgumentResolver direct = new QueryRecords(validator);
    private final HandlerMethodArgumentResolver generic = new ServletModelAttributeMethodProcessor(true);

    @SuppressWarnings("unused")
    void list(@ParameterObject @Valid PageParams paging, @ParameterObject @Valid HostFilter filter) {
    }

    @Test
    void bindsEachQueryAsTheGenericBindingDoes() throws Exception {
        Method list = getClass().getDeclaredMethod("list", PageParams.class, HostFilter.class);
        for (int index = 0; index < 2; index++) {
            var parameter = new MethodParameter(list, index);
            parameter.initParameterNameDiscovery(new DefaultParameterNameDiscoverer());
            assertThat(direct.supportsParameter(parameter)).isTrue();
            for (String query : QUERIES) {
                assertThat(outcome(direct, parameter, query)).as(query + " into " + parameter.getParameterType())
                        .isEqualTo(outcome(generic, parameter, query));
            }
        }
    }

    @Test
    void bindsPlainValuesWithoutTheGenericBinding() throws Exception {
        var parameter =
                new MethodParameter(getClass().getDeclaredMethod("list", PageParams.class, HostFilter.class), 0);
        // no binder factory: the generic binding would fail without one
        assertThat(direct.resolveArgument(parameter, new ModelAndViewContainer(),
                new ServletWebRequest(request("page=1&size=100&sort=name&sort=desc")), null))
                .isEqualTo(new PageParams(1, 100, List.of("name", "desc")));
    }

    /** The bound record, or the field errors as the API's problem lists them. */
    private Object outcome(HandlerMethodArgumentResolver resolver, MethodParameter parameter, String query)
            throws Exception {
        var initializer = new ConfigurableWebBindingInitializer();
        initializer.setConversionService(new DefaultFormattingConversionService());
        initializer.setValidator(validator);
        try {
            return resolver.resolveArgument(parameter, new ModelAndViewContainer(),
                    new ServletWebRequest(request(query)), new ServletRequestDataBinderFactory(null, initializer));
        } catch (MethodArgumentNotValidException e) {
            return FieldProblems.of(e.getBindingResult());
        }
    }

    private static MockHttpServletRequest request(String query) {
        var request = new MockHttpServletRequest("GET", "/api/v1/hosts");
        request.setQueryString(query);
        for (String pair : query.split("&")) {
            if (!pair.isEmpty()) {
                String[] nameValue = pair.split("=", 2);
                request.addParameter(nameValue[0], URLDecoder.decode(nameValue.length == 2 ? nameValue[1] : "",
                        StandardCharsets.UTF_8));
            }
        }
        return request;
    }

    private static LocalValidatorFactoryBean validator() {
        var validator = new LocalValidatorFactoryBean();
        validator.afterPropertiesSet();
        return validator;
    }
}
