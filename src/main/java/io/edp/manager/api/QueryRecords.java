package io.edp.manager.api;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.Validator;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.mvc.method.annotation.ServletModelAttributeMethodProcessor;

/**
 * Builds the {@code @ParameterObject} records of the lists (paging, filters) from the query directly. Spring MVC's
 * generic binding of such a record (a data binder per request that looks up each constructor parameter's name,
 * annotations and type descriptor, then converts and validates through its adapters) was over a quarter of a paged read
 * (docs/benchmarks.md, "Read endpoints"). Here each record's plan is found once; a request with plain values (digits
 * for a number, one value, not empty and without a comma or white space around it, for a string, such values for a
 * list) that Bean Validation accepts is bound directly, and every other request — a value to convert the generic way,
 * an invalid one — goes to the generic binding, so that conversions and the 400s naming the field stay exactly its.
 */
final class QueryRecords implements HandlerMethodArgumentResolver {

    /** How one record component is read from the query. */
    private enum Kind {
        INTEGER, STRING, STRING_LIST
    }

    /** A record's canonical constructor and its components' names and kinds, in order. */
    private record Plan(Constructor<?> constructor, String[] names, Kind[] kinds) {
    }

    /** Marks a record the fast path cannot build (a component of another type): always bound the generic way. */
    private static final Plan GENERIC = new Plan(null, null, null);
    private static final int MAX_DIGITS = 9; // fits an int

    private final Map<Class<?>, Plan> plans = new ConcurrentHashMap<>();
    private final HandlerMethodArgumentResolver generic = new ServletModelAttributeMethodProcessor(true);
    private final Validator validator;

    QueryRecords(Validator validator) {
        this.validator = validator;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.hasParameterAnnotation(ParameterObject.class) && parameter.getParameterType().isRecord();
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer container,
                                  NativeWebRequest request, WebDataBinderFactory binders) throws Exception {
        Plan plan = plans.computeIfAbsent(parameter.getParameterType(), QueryRecords::plan);
        Object record = plan == GENERIC ? null : bind(plan, request.getNativeRequest(HttpServletRequest.class));
        if (record == null || parameter.hasParameterAnnotation(Valid.class) && !validator.validate(record).isEmpty()) {
            return generic.resolveArgument(parameter, container, request, binders);
        }
        return record;
    }

    /** The record from the query, or null when a value is not plain. */
    private static Object bind(Plan plan, HttpServletRequest request) throws ReflectiveOperationException {
        Object[] arguments = new Object[plan.names.length];
        for (int i = 0; i < arguments.length; i++) {
            String[] values = request.getParameterValues(plan.names[i]);
            if (values == null) {
                continue;
            }
            if (plan.kinds[i] == Kind.STRING_LIST) {
                if (!Arrays.stream(values).allMatch(QueryRecords::isPlain)) {
                    return null;
                }
                arguments[i] = List.of(values);
            } else if (values.length != 1 || !isPlain(values[0])) {
                return null;
            } else if (plan.kinds[i] == Kind.STRING) {
                arguments[i] = values[0];
            } else if (isDigits(values[0])) {
                arguments[i] = Integer.valueOf(values[0]);
            } else {
                return null;
            }
        }
        try {
            return plan.constructor.newInstance(arguments);
        } catch (InvocationTargetException e) {
            return null; // the record refused the values: the generic binding reports it as it always did
        }
    }

    /**
     * A value that the generic binding takes as it is: not empty (absent to it), without a comma (where it splits
     * a list) or white space around it (which it trims from list elements).
     */
    private static boolean isPlain(String value) {
        return !value.isEmpty() && value.indexOf(',') < 0 && value.strip().length() == value.length();
    }

    private static boolean isDigits(String value) {
        return !value.isEmpty() && value.length() <= MAX_DIGITS && value.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static Plan plan(Class<?> type) {
        RecordComponent[] components = type.getRecordComponents();
        Kind[] kinds = new Kind[components.length];
        for (int i = 0; i < components.length; i++) {
            kinds[i] = kind(components[i].getGenericType());
            if (kinds[i] == null) {
                return GENERIC;
            }
        }
        try {
            var constructor = type.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType)
                    .toArray(Class<?>[]::new));
            constructor.setAccessible(true); // the filters of the features are package-private
            return new Plan(constructor, Arrays.stream(components).map(RecordComponent::getName)
                    .toArray(String[]::new), kinds);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("a record has its canonical constructor", e);
        }
    }

    private static Kind kind(Type type) {
        if (type == Integer.class) {
            return Kind.INTEGER;
        }
        if (type == String.class) {
            return Kind.STRING;
        }
        return type instanceof ParameterizedType list && list.getRawType() == List.class
                && list.getActualTypeArguments()[0] == String.class ? Kind.STRING_LIST : null;
    }
}
