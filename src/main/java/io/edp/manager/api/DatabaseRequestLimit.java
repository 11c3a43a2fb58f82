package io.edp.manager.api;

import java.util.concurrent.Semaphore;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.AsyncHandlerInterceptor;

/**
 * A bulkhead in front of the database: at most {@code concurrentRequests} API requests work on it at once, and one
 * more is refused at once (503) rather than queued behind the pool's connection timeout. Controllers
 * marked {@link WithoutDatabase} pass without a permit. An asynchronous request (a long poll) gives its permit back
 * while it waits, and its async dispatch, which only writes the result built meanwhile, takes none: when a change
 * answers a fleet's long polls at once, hundreds of dispatches would otherwise compete for permits they do not use
 * and be refused with the answer in hand.
 */
final class DatabaseRequestLimit implements AsyncHandlerInterceptor {

    private final Semaphore permits;
    private final int limit;

    DatabaseRequestLimit(int limit) {
        this.permits = new Semaphore(limit);
        this.limit = limit;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!needsPermit(request, handler)) {
            return true;
        }
        if (!permits.tryAcquire()) {
            throw new DatabaseUnavailableException("The manager is already serving " + limit
                    + " requests that need the database; retry later.");
        }
        return true;
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
            Exception failure) {
        if (needsPermit(request, handler)) {
            permits.release();
        }
    }

    @Override
    public void afterConcurrentHandlingStarted(HttpServletRequest request, HttpServletResponse response,
            Object handler) {
        if (needsDatabase(handler)) {
            permits.release();
        }
    }

    static boolean needsDatabase(HandlerMethod handler) {
        return !handler.getBeanType().isAnnotationPresent(WithoutDatabase.class);
    }

    private static boolean needsDatabase(Object handler) {
        return handler instanceof HandlerMethod method && needsDatabase(method);
    }

    private static boolean needsPermit(HttpServletRequest request, Object handler) {
        return request.getDispatcherType() != DispatcherType.ASYNC && needsDatabase(handler);
    }
}
