package io.edp.manager.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

class StatsApiTest extends ManagerTest {

    @Test
    void topFlowsTlbFlushAndPrometheusFollowTheHostsEngine() throws Exception {
        var hostId = hostWithAVm("esx-metrics");
        putEdp(hostId, "{\"settings\": {\"mode\": \"EDP_STANDARD\"}}").andExpect(status().isOk());
        sendTenThousandFramesToTheVm(hostId);

        awaitASnapshotOfTheWholeTraffic(hostId);
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/flows?size=5").with(viewer()))
                .andExpect(jsonPath("$.items.length()").value(5))
                .andExpect(jsonPath("$.items[0].packets").value(100))
                .andExpect(jsonPath("$.perWorker").value(1024))
                .andExpect(jsonPath("$.snapshots[0].worker").value(0))
                .andExpect(jsonPath("$.snapshots[0].flows").value(100))
                .andExpect(jsonPath("$.page.totalElements").value(100));
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/threads").with(viewer()))
                .andExpect(jsonPath("$.takenAt").exists())
                .andExpect(jsonPath("$.workers[0].rxPackets").value(10_000));
        var prometheus = responseBody("/actuator/prometheus");
        assertThat(prometheus).containsPattern(
                "edp_flowcache_hits_total\\{host=\"esx-metrics\",host_id=\"" + hostId + "\",worker=\"0\"} 9900");
        // unicast to a known VM: nothing flooded, nothing for the router
        assertThat(prometheus).containsPattern("edp_flood_frames_total\\{host=\"esx-metrics\",host_id=\"" + hostId
                        + "\"} 0")
                .containsPattern("edp_flood_rate_limited_total\\{host=\"esx-metrics\",host_id=\"" + hostId
                        + "\"} 0")
                .containsPattern("edp_router_replies_total\\{host=\"esx-metrics\",host_id=\"" + hostId
                        + "\",kind=\"echo\"} 0");

        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/tlb").with(viewer()))
                .andExpect(jsonPath("$.enabled").value(true))
                .andExpect(jsonPath("$.intervalMillis").value(4000))
                .andExpect(jsonPath("$.thresholdPercent").value(70));
        mvc.perform(put("/api/v1/hosts/" + hostId + "/edp").with(operator()).contentType(MediaType.APPLICATION_JSON)
                .content("{\"settings\": {\"mode\": \"EDP_STANDARD\", \"tlbIntervalSeconds\": 2}}"))
                .andExpect(status().isOk());
        await("the balancer to take its new interval", () -> responseBody("/api/v1/hosts/" + hostId + "/stats/tlb"),
                tlb -> JsonPath.<Integer>read(tlb, "$.intervalMillis") == 2000);

        mvc.perform(post("/api/v1/hosts/" + hostId + "/stats/flow-cache/flush").with(operator()))
                .andExpect(status().isNoContent());
        var realized = await("the host to realize what it desires", () -> performCompleted(
                        get("/api/v1/hosts/" + hostId + "/realization").with(viewer())).andReturn().getResponse()
                        .getContentAsString(),
                status -> JsonPath.<Integer>read(status, "$.realizedGeneration")
                        .equals(JsonPath.<Integer>read(status, "$.desiredGeneration")));
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/flow-cache").with(viewer()))
                .andExpect(jsonPath("$.total.entries").value(0))
                .andExpect(jsonPath("$.generation").value(JsonPath.<Integer>read(realized, "$.realizedGeneration")))
                .andExpect(jsonPath("$.engineTablesVersion").isNumber());

        mvc.perform(delete("/api/v1/hosts/" + hostId).with(operator())).andExpect(status().isNoContent());
        await("the host's metrics to go", () -> responseBody("/actuator/prometheus"),
                metrics -> !metrics.contains(hostId.toString()));
        // the meters go as the engine starts closing; its statistics once it has closed
        await("the host's engine to go", () -> mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/threads")
                .with(viewer())).andReturn().getResponse().getStatus(), code -> code == 404);
    }

    @Test
    void topFlowsAreSortedPagedAndFilteredOverTheSnapshotsAndAnOverflowingPageIs400() throws Exception {
        var hostId = hostWithAVm("esx-top");
        putEdp(hostId, "{\"settings\": {\"mode\": \"EDP_STANDARD\"}}").andExpect(status().isOk());
        sendTenThousandFramesToTheVm(hostId);
        var flows = "/api/v1/hosts/" + hostId + "/stats/flows";
        // a snapshot taken while the frames still arrived would change under the paging below
        assertThat(JsonPath.<Integer>read(awaitASnapshotOfTheWholeTraffic(hostId), "$.page.totalElements"))
                .isEqualTo(100);

        var first = responseBody(flows + "?size=60&sort=bytes,asc");
        var second = responseBody(flows + "?size=60&page=1&sort=bytes,asc");
        List<String> keys = new ArrayList<>(JsonPath.read(first, "$.items[*].flow"));
        keys.addAll(JsonPath.read(second, "$.items[*].flow"));
        assertThat(keys).hasSize(100).doesNotHaveDuplicates();
        assertThat(JsonPath.<List<Integer>>read(second, "$.items[*].bytes")).isSortedAccordingTo(Integer::compare);
        assertThat(JsonPath.<Integer>read(second, "$.page.totalPages")).isEqualTo(2);
        mvc.perform(get(flows + "?worker=1").with(viewer()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items.length()").value(0))
                .andExpect(jsonPath("$.page.totalElements").value(0));
        mvc.perform(get(flows + "?page=30000000").with(viewer()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items.length()").value(0));

        mvc.perform(get(flows + "?page=30000000&size=100").with(viewer()))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.errors[0].field").value("page"));
        mvc.perform(get("/api/v1/hosts?page=30000000&size=100").with(viewer()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("page"));
        mvc.perform(get(flows + "?page=99999999999").with(viewer()))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        mvc.perform(get(flows + "?size=101").with(viewer()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("size"));
        mvc.perform(get(flows + "?sort=action").with(viewer()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("sort"));
    }

    @Test
    void theVerifierSettingIsInheritedCheckedAndItsCountsReported() throws Exception {
        var hostId = hostWithAVm("esx-verified");
        created("/api/v1/edp-profiles", "{\"name\": \"verified\", \"settings\": {\"verifierSampleRate\": 1}}");
        putEdp(hostId, "{\"settings\": {\"mode\": \"EDP_STANDARD\", \"verifierSampleRate\": 1000001}}")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("settings.verifierSampleRate"));
        putEdp(hostId, "{\"settings\": {\"mode\": \"EDP_STANDARD\", \"verifierSampleRate\": -1}}")
                .andExpect(status().isBadRequest());
        putEdp(hostId, "{\"profile\": \"verified\", \"settings\": {\"mode\": \"EDP_STANDARD\"}}")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.effective.verifierSampleRate").value(1));
        sendTenThousandFramesToTheVm(hostId);

        // 100 flows: 100 misses, 9,900 hits, each one checked (one in 1), none found wrong
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/flow-cache").with(viewer()))
                .andExpect(jsonPath("$.workers[0].counters.verifierChecks").value(9900))
                .andExpect(jsonPath("$.workers[0].counters.verifierMismatches").value(0))
                .andExpect(jsonPath("$.total.verifierChecks").value(9900));
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/verifier").with(viewer()))
                .andExpect(jsonPath("$.checks").value(9900))
                .andExpect(jsonPath("$.mismatches").value(0))
                .andExpect(jsonPath("$.lastMismatches.length()").value(0));
        var prometheus = responseBody("/actuator/prometheus");
        var labels = "\\{host=\"esx-verified\",host_id=\"" + hostId + "\",worker=\"0\"}";
        assertThat(prometheus).containsPattern("edp_verifier_checks_total" + labels + " 9900")
                .containsPattern("edp_verifier_mismatches_total" + labels + " 0");

        putEdp(hostId, "{\"profile\": \"verified\", \"settings\": {\"mode\": \"EDP_STANDARD\", "
                + "\"verifierSampleRate\": 0}}")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.effective.verifierSampleRate").value(0));
    }

    /** The top flows of the first snapshot taken after every frame sent to the host's VM had arrived. */
    private String awaitASnapshotOfTheWholeTraffic(String hostId) throws Exception {
        var arrived = Instant.now();
        return await("a top-flows snapshot of the whole traffic",
                () -> responseBody("/api/v1/hosts/" + hostId + "/stats/flows"),
                flows -> JsonPath.<String>read(flows, "$.takenAt") != null
                        && Instant.parse(JsonPath.read(flows, "$.takenAt")).isAfter(arrived));
    }
}
