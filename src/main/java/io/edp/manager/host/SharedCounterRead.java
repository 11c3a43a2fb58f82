package io.edp.manager.host;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A counter read from the database once for all the requests waiting at that moment. A request never takes the value
 * of a read that was already running when it arrived, so it sees every change committed before it started, as a read
 * of its own would: it waits for the next read, which starts once the running one is done and serves everyone who
 * arrived meanwhile. With 16 clients polling a page of hosts, this is one round trip to PostgreSQL per few requests
 * instead of one each (docs/benchmarks.md, "Read endpoints").
 */
final class SharedCounterRead {

    private final LongSupplier source;
    private final ReentrantLock lock = new ReentrantLock();
    /** The read under way, or null. */
    private CompletableFuture<Long> running;
    /** The read that starts when the running one is done, which the requests arriving meanwhile wait for, or null. */
    private CompletableFuture<Long> next;

    SharedCounterRead(LongSupplier source) {
        this.source = source;
    }

    long read() {
        CompletableFuture<Long> mine;
        CompletableFuture<Long> before = null;
        CompletableFuture<Long> joined = null;
        lock.lock();
        try {
            if (running == null) {
                mine = running = new CompletableFuture<>();
            } else if (next != null) {
                mine = null;
                joined = next;
            } else {
                mine = next = new CompletableFuture<>();
                before = running;
            }
        } finally {
            lock.unlock();
        }
        if (joined != null) {
            return valueOf(joined);
        }
        if (before != null) {
            // the first to wait for the next read starts it, once the running one is done however it ended
            before.exceptionally(e -> 0L).join();
            lock.lock();
            try {
                running = mine;
                next = null;
            } finally {
                lock.unlock();
            }
        }
        try {
            long value = source.getAsLong();
            mine.complete(value);
            return value;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            lock.lock();
            try {
                if (running == mine) {
                    running = null;
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** The read's value, or its failure as the reading request got it (the 503 of a database away, for one). */
    private static long valueOf(CompletableFuture<Long> read) {
        try {
            return read.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
