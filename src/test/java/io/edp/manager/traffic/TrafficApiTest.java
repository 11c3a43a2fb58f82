package io.edp.manager.traffic;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

class TrafficApiTest extends ManagerTest {

    private static final String TO_VM = """
            {"nic": "%s", "flows": 100, "packetsPerSecond": 10000, "destinationMac": "00:50:56:aa:bb:01"}""";

    @Test
    void aHostWithoutAnEngineHasNoTraffic() throws Exception {
        var hostId = createHost("esx-empty");

        start(hostId, TO_VM.formatted("vmnic0")).andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/flow-cache").with(viewer()))
                .andExpect(status().isNotFound());
    }

    @Test
    void trafficNeedsALoopbackNicOfTheHostAndRunsOneAtATime() throws Exception {
        var hostId = createHost("esx-traffic");
        create("/api/v1/hosts/" + hostId + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");
        await("the host's engine", () -> start(hostId, TO_VM.formatted("vmnic9")).andReturn().getResponse()
                .getStatus(), code -> code != 404);

        start(hostId, TO_VM.formatted("vmnic9"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("nic"));
        start(hostId, TO_VM.formatted("vmnic0")).andExpect(status().isCreated())
                .andExpect(jsonPath("$.running").value(true));
        start(hostId, TO_VM.formatted("vmnic0")).andExpect(status().isConflict());

        mvc.perform(delete("/api/v1/hosts/" + hostId + "/traffic").with(operator()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.running").value(false))
                .andExpect(jsonPath("$.takenAt").exists());
        start(hostId, TO_VM.formatted("vmnic0")).andExpect(status().isCreated());
        mvc.perform(delete("/api/v1/hosts/" + hostId + "/traffic").with(operator())).andExpect(status().isOk());
    }

    @Test
    void aRunEndsWithItsHostsEngine() throws Exception {
        var hostId = createHost("esx-gone");
        create("/api/v1/hosts/" + hostId + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");
        await("traffic to start", () -> start(hostId, TO_VM.formatted("vmnic0")).andReturn().getResponse()
                .getStatus(), code -> code == 201);

        mvc.perform(delete("/api/v1/hosts/" + hostId).with(operator())).andExpect(status().isNoContent());

        await("the run to end with the engine", () -> mvc.perform(get("/api/v1/hosts/" + hostId + "/traffic")
                .with(viewer())).andReturn().getResponse().getStatus(), code -> code == 404);
    }

    private ResultActions start(UUID hostId, String json) throws Exception {
        return mvc.perform(post("/api/v1/hosts/" + hostId + "/traffic").with(operator())
                .contentType(MediaType.APPLICATION_JSON).content(json));
    }
}
