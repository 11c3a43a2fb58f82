package io.edp.manager.audit;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import io.edp.manager.api.AgentReports;
import io.edp.manager.api.DryRun;
import io.edp.manager.api.WithoutDatabase;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ClassFilter;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Runs each write handler of the API in a transaction that also appends its audit event, after the handler returned
 * and before the response is written: the change and its event commit together or not at all. The services'
 * {@code @Transactional} methods join this transaction. A handler that throws leaves no event here; its failure is
 * recorded by {@link WriteAuditFilter} once the status is known. Controllers marked {@link WithoutDatabase} are left
 * to the filter too, so that they still take no connection.
 */
final class AuditedWrites implements MethodInterceptor {

    /** Request attribute: the write's event is in the transaction that committed its change. */
    static final String RECORDED = AuditedWrites.class.getName() + ".recorded";

    private static final Set<RequestMethod> WRITES =
            Set.of(RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE);

    private final ObjectProvider<AuditTrail> trail;
    private final ObjectProvider<PlatformTransactionManager> transactions;

    AuditedWrites(ObjectProvider<AuditTrail> trail, ObjectProvider<PlatformTransactionManager> transactions) {
        this.trail = trail;
        this.transactions = transactions;
    }

    /** The write handlers of the controllers that use the database. */
    static final StaticMethodMatcherPointcut HANDLERS = new StaticMethodMatcherPointcut() {
        {
            setClassFilter(type -> AnnotatedElementUtils.hasAnnotation(type, RestController.class)
                    && !AnnotatedElementUtils.hasAnnotation(type, WithoutDatabase.class)
                    && !AnnotatedElementUtils.hasAnnotation(type, AgentReports.class));
        }

        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            var mapping = AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
            return mapping != null && Arrays.stream(mapping.method()).anyMatch(WRITES::contains);
        }
    };

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        var request = ((ServletRequestAttributes) RequestContextHolder.currentRequestAttributes()).getRequest();
        var user = SecurityContextHolder.getContext().getAuthentication().getName();
        boolean dryRun = DryRun.requested(request);
        var transaction = new TransactionTemplate(transactions.getObject());
        Handled handled;
        try {
            handled = transaction.execute(tx -> {
                var response = proceed(invocation);
                var event = event(request, user, invocation.getMethod(), response);
                if (dryRun) {
                    tx.setRollbackOnly(); // nothing stored, so PostgreSQL sends no NOTIFY and nothing is pushed
                } else {
                    trail.getObject().append(event);
                }
                return new Handled(response, event);
            });
        } catch (HandlerFailure failure) {
            throw failure.getCause();
        }
        if (dryRun) { // recorded as what it was, in a transaction of its own
            transaction.executeWithoutResult(tx -> trail.getObject().append(handled.event()));
        }
        request.setAttribute(RECORDED, Boolean.TRUE); // only now: a failed commit took the event with it
        return handled.response();
    }

    private static AuditedWrite event(HttpServletRequest request, String user, Method handler, Object response) {
        if (response instanceof ResponseEntity<?> entity) {
            var location = entity.getHeaders().getLocation();
            return AuditedWrite.of(request, user, entity.getStatusCode().value(),
                    location == null ? null : location.getRawPath(), entity.getHeaders().getETag());
        }
        var declared = AnnotatedElementUtils.findMergedAnnotation(handler, ResponseStatus.class);
        return AuditedWrite.of(request, user, declared == null ? 200 : declared.code().value(), null, null);
    }

    private static Object proceed(MethodInvocation invocation) {
        try {
            return invocation.proceed();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new HandlerFailure(e);
        }
    }

    private record Handled(Object response, AuditedWrite event) {
    }

    /** Carries a checked exception of a handler through the transaction callback. */
    private static final class HandlerFailure extends RuntimeException {
        HandlerFailure(Throwable cause) {
            super(cause);
        }
    }
}
