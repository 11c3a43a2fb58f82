package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.edp.engine.Await;
import jakarta.servlet.DispatcherType;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;

/**
 * The database's bulkhead: a fixed number of requests at once; one more waits at most the permit wait for a place
 * (refused at once with a wait of 0) rather than queued behind the pool's connection timeout.
 */
class DatabaseRequestLimitTest {

    private final DatabaseRequestLimit limit = new DatabaseRequestLimit(2, Duration.ZERO);
    private final MockHttpServletRequest request = new MockHttpServletRequest();
    private final MockHttpServletResponse response = new MockHttpServletResponse();

    static class InventoryController {
        void list() {
        }
    }

    @WithoutDatabase
    static class StatisticsController {
        void read() {
        }
    }

    @Test
    void aRequestBeyondTheLimitIsRefusedAtOnceAndAFinishedOneFreesItsPlace() throws Exception {
        var inventory = handler(new InventoryController(), "list");

        assertThat(limit.preHandle(request, response, inventory)).isTrue();
        assertThat(limit.preHandle(request, response, inventory)).isTrue();
        assertThatThrownBy(() -> limit.preHandle(request, response, inventory))
                .isInstanceOf(DatabaseUnavailableException.class).hasMessageContaining("2 requests");

        limit.afterCompletion(request, response, inventory, null);
        assertThat(limit.preHandle(request, response, inventory)).isTrue();
    }

    @Test
    void controllersWithoutDatabasePassWhenEveryPlaceIsTakenAndFreeNone() throws Exception {
        var inventory = handler(new InventoryController(), "list");
        var statistics = handler(new StatisticsController(), "read");
        limit.preHandle(request, response, inventory);
        limit.preHandle(request, response, inventory);

        assertThat(limit.preHandle(request, response, statistics)).isTrue();
        limit.afterCompletion(request, response, statistics, null);
        assertThatThrownBy(() -> limit.preHandle(request, response, inventory))
                .isInstanceOf(DatabaseUnavailableException.class);
    }

    @Test
    void anAsynchronousRequestFreesItsPlaceWhileItWaitsAndItsDispatchTakesNone() throws Exception {
        var inventory = handler(new InventoryController(), "list");
        var dispatch = new MockHttpServletRequest();
        dispatch.setDispatcherType(DispatcherType.ASYNC);
        for (int poll = 0; poll < 5; poll++) {
            assertThat(limit.preHandle(request, response, inventory)).isTrue();
            limit.afterConcurrentHandlingStarted(request, response, inventory);
        }
        assertThat(limit.preHandle(request, response, inventory)).isTrue();
        assertThat(limit.preHandle(request, response, inventory)).isTrue(); // every place taken

        for (int poll = 0; poll < 5; poll++) { // the polls' results are written all the same
            assertThat(limit.preHandle(dispatch, response, inventory)).isTrue();
            limit.afterCompletion(dispatch, response, inventory, null);
        }

        assertThatThrownBy(() -> limit.preHandle(request, response, inventory))
                .isInstanceOf(DatabaseUnavailableException.class); // and freed none
    }

    @Test
    void aRequestFindingEveryPlaceTakenGetsTheFirstOneFreedWithinTheWait() throws Exception {
        var waiting = new DatabaseRequestLimit(2, Duration.ofSeconds(30));
        var inventory = handler(new InventoryController(), "list");
        waiting.preHandle(request, response, inventory);
        waiting.preHandle(request, response, inventory);
        var waiter = new CompletableFuture<Thread>();
        var admitted = CompletableFuture.supplyAsync(() -> {
            waiter.complete(Thread.currentThread());
            return waiting.preHandle(request, response, inventory);
        });

        var thread = waiter.get(30, TimeUnit.SECONDS);
        Await.until("the request to wait for a place", () -> thread.getState() == Thread.State.TIMED_WAITING,
                Duration.ofSeconds(30));
        assertThat(admitted).isNotDone();
        long released = System.nanoTime();
        waiting.afterCompletion(request, response, inventory, null);

        assertThat(admitted.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - released)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aRequestFindingEveryPlaceHeldPastTheWaitIsRefusedAfterAboutTheWait() throws Exception {
        var wait = Duration.ofMillis(300);
        var waiting = new DatabaseRequestLimit(1, wait);
        var inventory = handler(new InventoryController(), "list");
        waiting.preHandle(request, response, inventory);

        long start = System.nanoTime();
        assertThatThrownBy(() -> waiting.preHandle(request, response, inventory))
                .isInstanceOf(DatabaseUnavailableException.class);
        var took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isGreaterThanOrEqualTo(wait).isLessThan(wait.plusSeconds(5)); // room for a loaded machine
        waiting.afterCompletion(request, response, inventory, null);
        assertThat(waiting.preHandle(request, response, inventory)).isTrue(); // the refused one took no place
    }

    private static HandlerMethod handler(Object controller, String method) throws NoSuchMethodException {
        return new HandlerMethod(controller, controller.getClass().getDeclaredMethod(method));
    }
}
