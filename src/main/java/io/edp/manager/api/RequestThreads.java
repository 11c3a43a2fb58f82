package io.edp.manager.api;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Tomcat's request threads: up to {@code max} platform threads, and a virtual thread for each request that comes
 * while every one of them is busy. Platform threads, because the kernel shares two cores more evenly between a
 * dozen request threads than between two virtual-thread carriers: the read endpoints' p99 was about half
 * (docs/benchmarks.md). Virtual threads beyond them, because some requests wait without a permit of the database's
 * bulkhead (the statistics of a host placed AGENT wait up to {@code edp.agent.request-timeout} for its agent): when
 * such requests hold every platform thread, the probes and the other requests still run.
 */
final class RequestThreads implements Executor, AutoCloseable {

    private static final long IDLE_SECONDS = 60;

    private final ThreadFactory overflow = Thread.ofVirtual().name("http-virtual-", 0).factory();
    private final ThreadPoolExecutor platform;

    RequestThreads(int minSpare, int max) {
        // a SynchronousQueue hands a task to an idle thread or to a new one up to max, and refuses it otherwise
        platform = new ThreadPoolExecutor(Math.min(minSpare, max), max, IDLE_SECONDS, TimeUnit.SECONDS,
                new SynchronousQueue<>(), Thread.ofPlatform().name("http-", 0).daemon().factory(),
                (task, pool) -> {
                    if (pool.isShutdown()) {
                        throw new RejectedExecutionException("request threads stopped");
                    }
                    overflow.newThread(task).start();
                });
    }

    @Override
    public void execute(Runnable task) {
        platform.execute(task);
    }

    @Override
    public void close() {
        platform.shutdown();
    }
}
