package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.edp.engine.Await;
import org.junit.jupiter.api.Test;

/** Requests on platform threads while one is free, on virtual threads while every one is busy. */
class RequestThreadsTest {

    @Test
    void aRequestWhileEveryPlatformThreadIsBusyRunsOnAVirtualThreadAndAFreedThreadIsTakenAgain() throws Exception {
        try (var threads = new RequestThreads(0, 1)) {
            var release = new CountDownLatch(1);
            var blocked = new CompletableFuture<Thread>();
            threads.execute(() -> {
                blocked.complete(Thread.currentThread());
                awaitQuietly(release);
            });
            assertThat(blocked.get(10, TimeUnit.SECONDS).isVirtual()).isFalse();

            var beside = new CompletableFuture<Thread>();
            threads.execute(() -> beside.complete(Thread.currentThread()));
            assertThat(beside.get(10, TimeUnit.SECONDS).isVirtual()).as("ran while the only platform thread waits")
                    .isTrue();

            release.countDown();
            // the freed thread takes a task once it waits for one again
            Await.until("a task on the freed platform thread", () -> {
                var next = new CompletableFuture<Thread>();
                threads.execute(() -> next.complete(Thread.currentThread()));
                return next.join() == blocked.join();
            }, Duration.ofSeconds(10));
        }
    }

    @Test
    void stoppedThreadsRefuseARequest() {
        var threads = new RequestThreads(1, 2);
        threads.close();

        assertThatThrownBy(() -> threads.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
