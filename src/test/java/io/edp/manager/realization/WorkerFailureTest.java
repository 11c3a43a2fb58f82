package io.edp.manager.realization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.edp.manager.engines.FaultInjection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A worker that dies is seen by the manager: the host's realization turns FAILED with the engine's reason within
 * seconds, /stats/threads and Prometheus show the dead worker, and the next push rebuilds the engine instead of
 * waiting on it.
 */
class WorkerFailureTest extends RealizationTest {

    private static final String DIED = "worker 0 died: java.lang.InternalError: injected";

    @Autowired
    private FaultInjection.FaultyEngines engines;

    private UUID hostId;

    @AfterEach
    void heal() {
        if (hostId != null) {
            engines.heal(hostId);
        }
    }

    @Test
    void aWorkerThatDiesTurnsTheRealizationFailedWithItsReasonAndTheNextPushRebuildsTheEngine() throws Exception {
        hostId = createHostWithNicAndTwoVms("esx-worker-dies");
        var threads = "/api/v1/hosts/" + hostId + "/stats/threads";
        var running = "edp_worker_running{host=\"esx-worker-dies\",host_id=\"" + hostId + "\",worker=\"0\"} ";
        awaitRealized(hostId, setEdp(hostId, "{\"mode\": \"EDP_STANDARD\", \"workersPerNumaNode\": {\"0\": 2}}"));
        var engine = engines.running(hostId);
        // the retry that would rebuild the engine fails for now, so the dead worker stays in view
        engines.failPushesTo(hostId);

        // each worker polls one RX queue of vmnic0, and 64 flows spread over both
        engine.injectFault(0, new InternalError("injected"));
        long injected = System.nanoTime();
        postJson("/api/v1/hosts/" + hostId + "/traffic", """
                {"nic": "vmnic0", "flows": 64, "packetsPerSecond": 10000, "destinationMac": "%s"}"""
                .formatted(WEB_MAC));
        var failed = await("the realization to fail with the worker's death", () -> realization(hostId),
                s -> s.read("$.state").equals("FAILED") && DIED.equals(s.read("$.failureReason")));

        assertThat(Duration.ofNanos(System.nanoTime() - injected)).isLessThan(Duration.ofSeconds(10));
        assertThat(failed.read("$.realizedGeneration", Long.class)).isZero();
        var dead = json(threads);
        assertThat(dead.read("$.workers[0].state", String.class)).isEqualTo("DEAD");
        assertThat(dead.read("$.workers[0].stateReason", String.class)).isEqualTo(DIED);
        assertThat(dead.read("$.workers[0].exceptions", Long.class)).isEqualTo(1);
        assertThat(dead.read("$.workers[1].state", String.class)).isEqualTo("RUNNING");
        await("Prometheus to show worker 0 down", () -> body("/actuator/prometheus"),
                metrics -> metrics.contains(running + "0"));

        engines.heal(hostId);
        long change = setEdp(hostId, "{\"mode\": \"EDP_DEDICATED\", \"workersPerNumaNode\": {\"0\": 2}}");
        var realized = awaitRealized(hostId, change);

        assertThat(realized.read("$.failureReason", String.class)).isNull();
        assertThat(engines.running(hostId)).isNotSameAs(engine);
        List<String> states = json(threads).read("$.workers[*].state");
        assertThat(states).containsExactly("RUNNING", "RUNNING");
        await("Prometheus to show the new worker 0 up", () -> body("/actuator/prometheus"),
                metrics -> metrics.contains(running + "1"));
    }

    private String body(String path) throws Exception {
        return mvc.perform(get(path).with(viewer())).andReturn().getResponse().getContentAsString();
    }
}
