package io.edp.manager.api;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.AsyncHandlerInterceptor;

/**
 * A bulkhead in front of the database: at most {@code concurrentRequests} API requests work on it at once, and one
 * more waits at most {@code permitWait} for a place before it is refused (503), rather than queued behind the pool's
 * connection timeout. The short wait takes in a burst (a change answering a fleet's long polls at once sends their
 * next calls together); while the database is away, permits are held for the connection timeout (3 s) and one more
 * request is still refused within about the wait. Each waiter holds a request thread, but none for longer than the
 * wait: a probe or a statistics request that finds every thread taken is served within about the wait too. Controllers
 * marked {@link WithoutDatabase} pass without a permit. An asynchronous request (a long poll) gives its permit back
 * while it waits, and its async dispatch, which only writes the result built meanwhile, takes none: when a change
 * answers a fleet's long polls at once, hundreds of dispatches would otherwise compete for permits they do not use
 * and be refused with the answer in hand.
 */
final class DatabaseRequestLimit implements AsyncHandlerInterceptor {

    private final Semaphore permits;
    private final int limit;
    private final long waitNanos;

    /** Waiters are served in order of arrival, so that one arriving later does not take the place of one waiting. */
    DatabaseRequestLimit(int limit, Duration wait) {
        this.permits = new Semaphore(limit, true);
        this.limit = limit;
        this.waitNanos = wait.toNanos();
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!needsPermit(request, handler)) {
            return true;
        }
        if (!acquire()) {
            throw new DatabaseUnavailableException("The manager is already serving " + limit
                    + " requests that need the database; retry later.");
        }
        return true;
    }

    private boolean acquire() {
        try {
            return permits.tryAcquire(waitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
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
