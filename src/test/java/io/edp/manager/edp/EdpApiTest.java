package io.edp.manager.edp;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import io.edp.engine.StormControl;
import io.edp.manager.ManagerTest;
import io.edp.manager.engines.HostEngines;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.ResultActions;

class EdpApiTest extends ManagerTest {

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private HostEngines engines;

    private UUID hostId;

    @BeforeEach
    void host() throws Exception {
        hostId = createHost("esx-01");
    }

    @Test
    void aNewHostHasTheDefaults() throws Exception {
        mvc.perform(get(edp()).with(viewer()))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"0\""))
                .andExpect(jsonPath("$.profile").doesNotExist())
                .andExpect(jsonPath("$.effective.mode").value("LEGACY"))
                .andExpect(jsonPath("$.effective.flowCacheSize").value(131072))
                .andExpect(jsonPath("$.effective.flowExpiryMinSeconds").value(90))
                .andExpect(jsonPath("$.effective.flowExpiryMaxSeconds").value(150))
                .andExpect(jsonPath("$.effective.tlbIntervalSeconds").value(4))
                .andExpect(jsonPath("$.effective.tlbThresholdPercent").value(70))
                .andExpect(jsonPath("$.effective.stormControlFramesPerSecond").value(10_000))
                .andExpect(jsonPath("$.effective.stormControlBurst").value(1_000));
    }

    @Test
    void stormControlIsAHostSettingTheEngineRunsWith() throws Exception {
        String host = hostWithAVm("esx-storm");
        putEdp(host, """
                {"settings": {"stormControlFramesPerSecond": 0, "stormControlBurst": 2000000}}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", hasItem("settings.stormControlFramesPerSecond")))
                .andExpect(jsonPath("$.errors[*].field", hasItem("settings.stormControlBurst")));
        putEdp(host, """
                {"settings": {"stormControlFramesPerSecond": 500}}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.effective.stormControlFramesPerSecond").value(500))
                .andExpect(jsonPath("$.effective.stormControlBurst").value(1_000));
        await("the engine running with the host's storm control", () -> engines.engine(UUID.fromString(host))
                .map(e -> e.config().stormControl()).orElse(null), new StormControl(500, 1_000)::equals);
    }

    @Test
    void nsxNamesAreAcceptedAndStoredAsEdpModes() throws Exception {
        putEdp("{\"settings\": {\"mode\": \"ENS_INTERRUPT\"}}").andExpect(jsonPath("$.settings.mode")
                .value("EDP_STANDARD"));
        putEdp("{\"settings\": {\"mode\": \"ens\"}}").andExpect(jsonPath("$.effective.mode").value("EDP_DEDICATED"));
    }

    @Test
    void aBareStandardIsRefusedNamingBothMeanings() throws Exception {
        putEdp("{\"settings\": {\"mode\": \"STANDARD\"}}")
                .andExpect(status().isBadRequest())
                .andExpect(header().string("Content-Type", "application/problem+json"))
                .andExpect(jsonPath("$.errors[0].field").value("settings.mode"))
                .andExpect(jsonPath("$.errors[0].message", containsString("LEGACY")))
                .andExpect(jsonPath("$.errors[0].message", containsString("EDP_STANDARD")));
    }

    @Test
    void badSettingsAreListedFieldByField() throws Exception {
        putEdp("""
                {"settings": {"flowCacheSize": 1000, "flowExpiryMinSeconds": 200, "flowExpiryMaxSeconds": 100,
                              "tlbThresholdPercent": 0}}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[*].field", hasItem("settings.tlbThresholdPercent")));
        putEdp("""
                {"settings": {"flowCacheSize": 1000, "flowExpiryMinSeconds": 200, "flowExpiryMaxSeconds": 100}}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("settings.flowCacheSize"))
                .andExpect(jsonPath("$.errors[1].field").value("settings.flowExpiryMinSeconds"));
        putEdp("{\"settings\": {\"flowCacheSize\": 1048576}}").andExpect(status().isBadRequest());
        putEdp("{\"settings\": {\"workersPerNumaNode\": {\"0\": 1, \"7\": 2}}}")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("settings.workersPerNumaNode"))
                .andExpect(jsonPath("$.errors[0].message", containsString("[7]")));
    }

    @Test
    void anIdenticalPutKeepsVersionAndGeneration() throws Exception {
        var body = "{\"settings\": {\"mode\": \"EDP_STANDARD\", \"workersPerNumaNode\": {\"0\": 2}}}";
        putEdp(body).andExpect(status().isOk()).andExpect(header().string("ETag", "\"1\""));
        long generation = desiredGeneration();

        putEdp(body).andExpect(status().isOk()).andExpect(header().string("ETag", "\"1\""))
                .andExpect(jsonPath("$.settings.mode").value("EDP_STANDARD"));

        assertThat(desiredGeneration()).isEqualTo(generation);
    }

    @Test
    void aStaleIfMatchIs412() throws Exception {
        putEdp("{\"settings\": {\"mode\": \"EDP_STANDARD\"}}").andExpect(status().isOk());

        mvc.perform(put(edp()).with(operator()).header("If-Match", "\"0\"").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"settings\": {\"mode\": \"LEGACY\"}}"))
                .andExpect(status().isPreconditionFailed());
    }

    @Test
    void theHostsOwnSettingsWinOverItsProfile() throws Exception {
        created("/api/v1/edp-profiles", """
                {"name": "gold", "settings": {"mode": "EDP_DEDICATED", "flowCacheSize": 65536}}""");

        putEdp("{\"profile\": \"gold\", \"settings\": {\"flowCacheSize\": 4096}}")
                .andExpect(jsonPath("$.profile").value("gold"))
                .andExpect(jsonPath("$.effective.mode").value("EDP_DEDICATED"))
                .andExpect(jsonPath("$.effective.flowCacheSize").value(4096))
                .andExpect(jsonPath("$.effective.flowExpiryMaxSeconds").value(150));
    }

    @Test
    void changingAProfileBumpsEveryHostThatFollowsIt() throws Exception {
        var other = createHost("esx-02");
        var bystander = createHost("esx-03");
        created("/api/v1/edp-profiles", "{\"name\": \"gold\", \"settings\": {\"mode\": \"EDP_STANDARD\"}}");
        putEdp("{\"profile\": \"gold\"}").andExpect(status().isOk());
        mvc.perform(put("/api/v1/hosts/" + other + "/edp").with(operator()).contentType(MediaType.APPLICATION_JSON)
                .content("{\"profile\": \"gold\"}")).andExpect(status().isOk());
        long mine = desiredGeneration(hostId);
        long others = desiredGeneration(other);
        long bystanders = desiredGeneration(bystander);

        mvc.perform(put("/api/v1/edp-profiles/gold").with(operator()).header("If-Match", "\"0\"")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"settings\": {\"mode\": \"EDP_DEDICATED\"}}"))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"1\""))
                .andExpect(jsonPath("$.hosts").value(2));

        assertThat(desiredGeneration(hostId)).isEqualTo(mine + 1);
        assertThat(desiredGeneration(other)).isEqualTo(others + 1);
        assertThat(desiredGeneration(bystander)).isEqualTo(bystanders);
        mvc.perform(get(edp()).with(viewer())).andExpect(jsonPath("$.effective.mode").value("EDP_DEDICATED"));
    }

    @Test
    void aProfileInUseCannotBeDeletedAndAnUnknownOneIs400() throws Exception {
        created("/api/v1/edp-profiles", "{\"name\": \"gold\"}");
        putEdp("{\"profile\": \"gold\"}").andExpect(status().isOk());

        mvc.perform(delete("/api/v1/edp-profiles/gold").with(operator())).andExpect(status().isConflict());
        putEdp("{\"profile\": \"silver\"}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("profile"));
        mvc.perform(post("/api/v1/edp-profiles").with(operator()).contentType(MediaType.APPLICATION_JSON)
                .content("{\"name\": \"gold\"}")).andExpect(status().isConflict());
    }

    @Test
    void settingsTheEngineCannotRunAreRefusedNamingTheField() throws Exception {
        var fourNodes = create("/api/v1/hosts", """
                {"name": "esx-big", "managementAddress": "192.0.2.12", "numaNodes": [{"id": 0, "cpuCores": [0]},
                 {"id": 1, "cpuCores": [1]}, {"id": 2, "cpuCores": [2]}, {"id": 3, "cpuCores": [3]}]}""");
        long generation = desiredGeneration(fourNodes);

        mvc.perform(put("/api/v1/hosts/" + fourNodes + "/edp").with(operator())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"settings\": {\"workersPerNumaNode\": "
                                + "{\"0\": 64, \"1\": 64, \"2\": 64, \"3\": 64}}}"))
                .andExpect(status().isBadRequest())
                .andExpect(header().string("Content-Type", "application/problem+json"))
                .andExpect(jsonPath("$.errors[0].field").value("settings.workersPerNumaNode"))
                .andExpect(jsonPath("$.errors[0].message", containsString("total workers must be 1..64: 256")));
        assertThat(desiredGeneration(fourNodes)).isEqualTo(generation);
    }

    @Test
    void aProfileChangeThatWouldBreakAFollowingHostIsRefusedNamingIt() throws Exception {
        created("/api/v1/edp-profiles", "{\"name\": \"wide\", \"settings\": {\"flowExpiryMaxSeconds\": 600}}");
        putEdp("{\"profile\": \"wide\", \"settings\": {\"flowExpiryMinSeconds\": 300}}")
                .andExpect(status().isOk());

        mvc.perform(put("/api/v1/edp-profiles/wide").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"settings\": {\"flowExpiryMaxSeconds\": 120}}"))
                .andExpect(status().isConflict())
                .andExpect(header().string("Content-Type", "application/problem+json"))
                .andExpect(jsonPath("$.detail", containsString("esx-01")))
                .andExpect(jsonPath("$.detail", containsString("flowExpiryMinSeconds")));
        mvc.perform(get("/api/v1/edp-profiles/wide").with(viewer()))
                .andExpect(jsonPath("$.settings.flowExpiryMaxSeconds").value(600));
    }

    private ResultActions putEdp(String json) throws Exception {
        return mvc.perform(put(edp()).with(operator()).contentType(MediaType.APPLICATION_JSON).content(json));
    }

    private long desiredGeneration() {
        return desiredGeneration(hostId);
    }

    private long desiredGeneration(UUID host) {
        return jdbc.queryForObject("SELECT desired_generation FROM host_realization WHERE host_id = ?", Long.class,
                host);
    }

    private String edp() {
        return "/api/v1/hosts/" + hostId + "/edp";
    }
}
