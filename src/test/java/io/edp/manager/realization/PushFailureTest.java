package io.edp.manager.realization;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import io.edp.manager.engines.FaultInjection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class PushFailureTest extends RealizationTest {

    @Autowired
    private FaultInjection.FaultyEngines engines;

    private UUID failing;

    @AfterEach
    void heal() {
        if (failing != null) {
            engines.heal(failing);
        }
    }

    @Test
    void aFailedPushIsFailedWithItsReasonKeepsTheDesiredStateAndSucceedsOnRetry() throws Exception {
        failing = createHostWithNicAndTwoVms("esx-failing");
        awaitRealized(failing, desiredGeneration(failing));
        long realizedBefore = realization(failing).read("$.realizedGeneration", Long.class);

        engines.failPushesTo(failing);
        long desired = setEdp(failing, "{\"mode\": \"ENS\"}");
        var failed = await("the push to fail", () -> realization(failing),
                s -> s.read("$.state").equals("FAILED"));

        assertThat(failed.read("$.failureReason", String.class)).contains("injected fault");
        assertThat(failed.read("$.desiredGeneration", Long.class)).isEqualTo(desired);
        assertThat(failed.read("$.realizedGeneration", Long.class)).isEqualTo(realizedBefore);
        assertThat(json("/api/v1/hosts/" + failing + "/edp").read("$.effective.mode", String.class))
                .isEqualTo("EDP_DEDICATED");
        assertThat(json("/api/v1/hosts/" + failing + "/stats/flow-cache").read("$.mode", String.class))
                .isEqualTo("LEGACY");

        engines.heal(failing);
        var recovered = awaitRealized(failing, desired);
        assertThat(recovered.read("$.failureReason", String.class)).isNull();
        assertThat(json("/api/v1/hosts/" + failing + "/stats/flow-cache").read("$.mode", String.class))
                .isEqualTo("EDP_DEDICATED");
    }

    @Test
    void aFailingHostDoesNotHoldUpTheOthers() throws Exception {
        failing = createHostWithNicAndTwoVms("esx-failing");
        var healthy = createHostWithNicAndTwoVms("esx-healthy");
        engines.failPushesTo(failing);

        long desired = setEdp(healthy, "{\"mode\": \"EDP_STANDARD\"}");
        setEdp(failing, "{\"mode\": \"EDP_STANDARD\"}");

        awaitRealized(healthy, desired);
        await("the failing host to fail", () -> realization(failing), s -> s.read("$.state").equals("FAILED"));
        assertThat(realization(failing).read("$.failedAttempts", Integer.class)).isPositive();
        // the failing host is retried (IN_PROGRESS for a moment) between its failures, so the list is polled
        var all = await("the list to show both hosts", () -> json("/api/v1/realization"),
                list -> list.read("$.items[*].state", List.class).contains("FAILED"));
        assertThat(all.read("$.page.totalElements", Integer.class)).isEqualTo(2);
        assertThat(all.read("$.items[*].state", List.class)).contains("SUCCESS", "FAILED");
    }
}
