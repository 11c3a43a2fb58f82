package io.edp.manager.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.engine.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.Test;

/**
 * Requests that arrive while a read runs share the next one, never the running one: each sees a value read after it
 * arrived. The source is released step by step by the test, so the order is the test's, not the scheduler's.
 */
class SharedCounterReadTest {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    /** A source whose reads each wait for the test to hand them their value (or failure). */
    private static final class SteppedSource implements LongSupplier {
        final AtomicInteger started = new AtomicInteger();
        final BlockingQueue<Object> answers = new LinkedBlockingQueue<>();

        @Override
        public long getAsLong() {
            started.incrementAndGet();
            try {
                Object answer = answers.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                if (answer instanceof RuntimeException failure) {
                    throw failure;
                }
                return (Long) answer;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void requestsArrivingDuringAReadShareTheNextOne() throws Exception {
        var source = new SteppedSource();
        var shared = new SharedCounterRead(source);
        var first = CompletableFuture.supplyAsync(shared::read, Thread::startVirtualThread);
        awaitStarted(source, 1);
        List<Thread> waiting = new ArrayList<>();
        List<CompletableFuture<Long>> later = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            var answer = new CompletableFuture<Long>();
            waiting.add(Thread.ofPlatform().start(() -> answer.complete(shared.read())));
            later.add(answer);
        }
        awaitWaiting(waiting);
        assertThat(source.started).hasValue(1);

        source.answers.add(7L); // the first read ends with a value the later requests must not take
        assertThat(first.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(7L);
        awaitStarted(source, 2);
        source.answers.add(8L);
        for (var answer : later) {
            assertThat(answer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(8L);
        }
        assertThat(source.started).hasValue(2);

        source.answers.add(9L); // nothing running: a request reads at once
        assertThat(shared.read()).isEqualTo(9L);
    }

    @Test
    void aFailedReadFailsThoseWhoWaitedForIt() throws Exception {
        var source = new SteppedSource();
        var shared = new SharedCounterRead(source);
        var first = CompletableFuture.supplyAsync(shared::read, Thread::startVirtualThread);
        awaitStarted(source, 1);
        var failures = new ArrayList<CompletableFuture<Throwable>>();
        List<Thread> waiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            var failure = new CompletableFuture<Throwable>();
            waiting.add(Thread.ofPlatform().start(() -> {
                try {
                    shared.read();
                    failure.complete(null);
                } catch (RuntimeException e) {
                    failure.complete(e);
                }
            }));
            failures.add(failure);
        }
        awaitWaiting(waiting);
        var away = new IllegalStateException("database away");
        source.answers.add(1L);
        assertThat(first.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(1L);
        awaitStarted(source, 2);
        source.answers.add(away);
        for (var failure : failures) {
            assertThat(failure.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isSameAs(away);
        }
        source.answers.add(2L); // the failure is not kept
        assertThat(shared.read()).isEqualTo(2L);
        assertThatThrownBy(() -> {
            source.answers.add(new IllegalArgumentException("once"));
            shared.read();
        }).hasMessage("once");
    }

    private static void awaitStarted(SteppedSource source, int reads) {
        Await.until("read " + reads + " started", () -> source.started.get() >= reads, DEADLINE);
    }

    /** Each thread parked (waiting for a read, or for the running one to end). */
    private static void awaitWaiting(List<Thread> threads) {
        Await.until("requests waiting", () -> threads.stream().allMatch(t -> t.getState() == Thread.State.WAITING),
                DEADLINE);
    }
}
