package io.edp.manager.realization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import io.edp.engine.EngineConfig;
import io.edp.engine.Mode;
import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.worker.Worker;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.ResultActions;

/**
 * The embedded engines' memory budget: room for three engines with the default settings, one loopback port and
 * half a worker more; each engine's reservation includes the rings of the four captures it may run (per worker). A
 * fourth host, or a settings change that makes an engine bigger than what is left, is refused with 409 saying how
 * much it needs and how much is left; what shrinks an engine is always accepted.
 */
class EngineMemoryBudgetTest extends RealizationTest {

    private static final int MBUFS = 4096;
    private static final int CONNTRACK = 65_536;
    /** The rings of edp.capture.max-running (4) captures of whole frames on one worker: 4 × 1,024 × 2,064 bytes. */
    private static final long CAPTURE_RINGS = 4 * 1024 * (2048 + 16);
    /** One host's engine with the defaults: LEGACY, one worker, the default flow cache, its captures' rings. */
    private static final long DEFAULT_ENGINE = EngineConfig.memoryBytes(Mode.LEGACY, 1, FlowCache.DEFAULT_CAPACITY,
            CONNTRACK, MBUFS, 0) + CAPTURE_RINGS;
    /** What a second worker costs: its flow cache and fixed tables, and its rings of each capture. */
    private static final long WORKER = FlowCache.bytes(FlowCache.DEFAULT_CAPACITY) + Worker.fixedBytes()
            + CAPTURE_RINGS;
    /** What a loopback port costs: its traffic sink. */
    private static final long PORT = LoopbackNic.bytes();
    private static final long BUDGET = 3 * DEFAULT_ENGINE + PORT + WORKER / 2;

    @DynamicPropertySource
    static void budget(DynamicPropertyRegistry registry) {
        registry.add("edp.engines.memory-budget", () -> BUDGET + "B");
        registry.add("edp.engines.mbufs", () -> MBUFS);
        registry.add("edp.engines.conntrack-capacity", () -> CONNTRACK);
    }

    private UUID first;

    @BeforeEach
    void threeHosts() throws Exception {
        first = createHost("esx-1");
        createHost("esx-2");
        createHost("esx-3");
    }

    @Test
    void aHostThatWouldNotFitIsRefusedSayingWhatItNeedsAndWhatIsLeft() throws Exception {
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content(hostJson("esx-4")))
                .andExpect(status().isConflict())
                .andExpect(header().string("Content-Type", "application/problem+json"))
                .andExpect(jsonPath("$.neededBytes").value(DEFAULT_ENGINE))
                .andExpect(jsonPath("$.availableBytes").value(BUDGET - 3 * DEFAULT_ENGINE))
                .andExpect(jsonPath("$.budgetBytes").value(BUDGET))
                .andExpect(jsonPath("$.hosts.esx-4").value(DEFAULT_ENGINE))
                .andExpect(jsonPath("$.detail", containsString("edp.engines.memory-budget")));

        assertThat(rows("host")).isEqualTo(3);
    }

    @Test
    void aSettingsChangeThatWouldNotFitIsRefusedAndOneThatShrinksIsAccepted() throws Exception {
        long generation = desiredGeneration(first);
        long bigger = EngineConfig.memoryBytes(Mode.LEGACY, 1, FlowCache.MAX_CAPACITY, CONNTRACK, MBUFS, 0)
                + CAPTURE_RINGS;

        putEdp(first, "{\"flowCacheSize\": " + FlowCache.MAX_CAPACITY + "}")
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.neededBytes").value(bigger - DEFAULT_ENGINE))
                .andExpect(jsonPath("$.availableBytes").value(BUDGET - 3 * DEFAULT_ENGINE))
                .andExpect(jsonPath("$.hosts.esx-1").value(bigger));
        assertThat(desiredGeneration(first)).isEqualTo(generation);

        putEdp(first, "{\"flowCacheSize\": 1024}").andExpect(status().isOk());
        putEdp(first, "{\"flowCacheSize\": 131072, \"mode\": \"EDP_STANDARD\"}").andExpect(status().isOk());
    }

    @Test
    void aNicThatAddsAWorkerIsRefusedWhenItsFlowCacheDoesNotFit() throws Exception {
        // a loopback port fits (the budget keeps room for one), a second one does not
        create("/api/v1/hosts/" + first + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 10000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");

        // workers left to their default: a NIC on NUMA node 1 brings a second worker and its flow cache
        mvc.perform(post("/api/v1/hosts/" + first + "/pnics").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("""
                                {"name": "vmnic1", "numaNode": 1, "speedMbps": 10000, "rxQueues": 1, "rss": false,
                                 "driver": {"kind": "loopback"}}"""))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.neededBytes").value(WORKER + PORT))
                .andExpect(jsonPath("$.availableBytes").value(BUDGET - 3 * DEFAULT_ENGINE - PORT));
    }

    private ResultActions putEdp(UUID hostId, String settings) throws Exception {
        return mvc.perform(put("/api/v1/hosts/" + hostId + "/edp").with(operator())
                .contentType(MediaType.APPLICATION_JSON).content("{\"settings\": " + settings + "}"));
    }
}
