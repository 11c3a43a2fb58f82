package io.edp.manager.realization;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A worker that dies is seen by the manager: the host's realization turns FAILED with the engine's reason within
 * seconds, /stats/threads shows the dead worker, and the next push rebuilds the engine instead of waiting on it.
 */
class WorkerFailureTest extends RealizationTest {

    private static final String DIED = "worker 0 died: java.lang.InternalError: injected";

    @Autowired
    private HostEngines engines;

    @Test
    void aWorkerThatDiesTurnsTheRealizationFailedWithItsReasonAndTheNextPushRebuildsTheEngine() throws Exception {
        var hostId = createHostWithNicAndTwoVms("esx-worker-dies");
        var threads = "/api/v1/hosts/" + hostId + "/stats/threads";
        awaitRealized(hostId, setEdp(hostId, "{\"mode\": \"EDP_STANDARD\", \"workersPerNumaNode\": {\"0\": 2}}"));
        var engine = engines.require(hostId);

        // each worker polls one RX queue of vmnic0, and 64 flows spread over both
        engine.injectFault(0, new InternalError("injected"));
        long injected = System.nanoTime();
        postJson("/api/v1/hosts/" + hostId + "/traffic", """
                {"nic": "vmnic0", "flows": 64, "packetsPerSecond": 10000, "destinationMac": "%s"}"""
                .formatted(WEB_MAC));
        var failed = await("the realization to fail", () -> realization(hostId),
                s -> s.read("$.state").equals("FAILED"));

        assertThat(Duration.ofNanos(System.nanoTime() - injected)).isLessThan(Duration.ofSeconds(10));
        assertThat(failed.read("$.failureReason", String.class)).isEqualTo(DIED);
        var dead = json(threads);
        assertThat(dead.read("$.workers[0].state", String.class)).isEqualTo("DEAD");
        assertThat(dead.read("$.workers[0].stateReason", String.class)).isEqualTo(DIED);
        assertThat(dead.read("$.workers[0].exceptions", Long.class)).isEqualTo(1);
        assertThat(dead.read("$.workers[1].state", String.class)).isEqualTo("RUNNING");

        long change = setEdp(hostId, "{\"mode\": \"EDP_DEDICATED\", \"workersPerNumaNode\": {\"0\": 2}}");
        var realized = awaitRealized(hostId, change);

        assertThat(realized.read("$.failureReason", String.class)).isNull();
        assertThat(engines.require(hostId)).isNotSameAs(engine);
        List<String> states = json(threads).read("$.workers[*].state");
        assertThat(states).containsExactly("RUNNING", "RUNNING");
    }
}
