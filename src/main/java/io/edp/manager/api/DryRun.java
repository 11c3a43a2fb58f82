package io.edp.manager.api;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code ?dryRun=true} on a write (Kubernetes' dry run): the write runs with all its checks in a transaction that is
 * rolled back, so it answers what the real write would — the same problem for bad input, or the representation it
 * would store, marked with {@value #HEADER} — and commits, notifies and pushes nothing.
 */
public final class DryRun {

    public static final String PARAMETER = "dryRun";
    /** Set to {@code true} on the answer of a successful dry run. */
    public static final String HEADER = "EDP-Dry-Run";

    private static final Set<RequestMethod> WRITES =
            Set.of(RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE);

    private DryRun() {
    }

    /**
     * Whether the handler is a write that takes {@code dryRun}: one of a controller that uses the database (its
     * writes run in a transaction that can be rolled back), not a read-only POST.
     */
    public static boolean takenBy(Method handler, Class<?> controller) {
        if (!AnnotatedElementUtils.hasAnnotation(controller, RestController.class)
                || AnnotatedElementUtils.hasAnnotation(controller, WithoutDatabase.class)
                || AnnotatedElementUtils.hasAnnotation(handler, ReadOnlyPost.class)) {
            return false;
        }
        var mapping = AnnotatedElementUtils.findMergedAnnotation(handler, RequestMapping.class);
        return mapping != null && Arrays.stream(mapping.method()).anyMatch(WRITES::contains);
    }

    /** Whether the request asks for a dry run; 400 naming the parameter for a value other than true or false. */
    public static boolean requested(HttpServletRequest request) {
        var value = request.getParameter(PARAMETER);
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw new InvalidRequestException(PARAMETER, "must be true or false");
    }
}
