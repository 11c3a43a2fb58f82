package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.DispatcherType;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;

/** The database's bulkhead: a fixed number of requests at once, refused rather than queued beyond it. */
class DatabaseRequestLimitTest {

    private final DatabaseRequestLimit limit = new DatabaseRequestLimit(2);
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

    private static HandlerMethod handler(Object controller, String method) throws NoSuchMethodException {
        return new HandlerMethod(controller, controller.getClass().getDeclaredMethod(method));
    }
}
