package io.edp.manager.realization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.asyncDispatch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.engines.FaultInjection;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.mock.web.MockAsyncContext;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.web.context.request.async.WebAsyncUtils;

class GenerationWaitTest extends RealizationTest {

    @Autowired
    private FaultInjection.FaultyEngines engines;

    @Autowired
    private JdbcTemplate jdbc;

    private UUID faulty;

    @AfterEach
    void heal() {
        engines.releasePushes();
        if (faulty != null) {
            engines.heal(faulty);
        }
    }

    @Test
    void everyWriteToAHostAnswersWithTheGenerationItLeftDesired() throws Exception {
        var created = mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON)
                .content(hostJson("esx-gen"))).andExpect(status().isCreated()).andReturn().getResponse();
        var hostId = UUID.fromString(JsonPath.read(created.getContentAsString(), "$.id"));
        assertThat(generation(created)).isEqualTo(desiredGeneration(hostId));

        long before = desiredGeneration(hostId);
        long changed = generation(putEdp(hostId, "{\"mode\": \"EDP_STANDARD\"}"));
        assertThat(changed).isEqualTo(before + 1).isEqualTo(desiredGeneration(hostId));
        assertThat(generation(putEdp(hostId, "{\"mode\": \"EDP_STANDARD\"}"))).as("an identical PUT changes nothing")
                .isEqualTo(changed);

        var vm = mvc.perform(post("/api/v1/hosts/" + hostId + "/vms").with(operator())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"web\", \"vcpus\": 2, \"numaNode\": 0}"))
                .andExpect(status().isCreated()).andReturn().getResponse();
        assertThat(generation(vm)).isEqualTo(desiredGeneration(hostId)).isGreaterThan(changed);

        var rejected = mvc.perform(put("/api/v1/hosts/" + hostId + "/edp").with(operator())
                        .contentType(MediaType.APPLICATION_JSON).content("{\"settings\": {\"mode\": \"FAST\"}}"))
                .andExpect(status().isBadRequest()).andReturn().getResponse();
        assertThat(rejected.getHeader(DesiredGenerationHeader.HEADER)).as("a refused write").isNull();

        var deleted = mvc.perform(delete("/api/v1/hosts/" + hostId).with(operator()))
                .andExpect(status().isNoContent()).andReturn().getResponse();
        assertThat(deleted.getHeader(DesiredGenerationHeader.HEADER)).as("a deleted host has none").isNull();
    }

    @Test
    void aLongPollAnswersOnceTheGenerationIsRealized() throws Exception {
        var hostId = createHostWithNicAndTwoVms("esx-wait");
        long generation = changeWithPushesHeld(hostId);

        MvcResult waiting = longPoll(hostId, generation, "30s");
        assertThat(WebAsyncUtils.getAsyncManager(waiting.getRequest()).hasConcurrentResult())
                .as("no answer while the push is held").isFalse();

        engines.releasePushes();
        mvc.perform(asyncDispatch(waiting)).andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("SUCCESS"))
                .andExpect(jsonPath("$.realizedGeneration").value(generation));
    }

    @Test
    void aLongPollIsAnsweredByARealizationThatAnotherProcessRecords() throws Exception {
        var hostId = createHostWithNicAndTwoVms("esx-elsewhere");
        long generation = changeWithPushesHeld(hostId);
        MvcResult waiting = longPoll(hostId, generation, "30s");

        // what another replica, or an agent reporting through one, commits: this process pushes nothing meanwhile
        jdbc.update("UPDATE host_realization SET realized_generation = ?, state = 'SUCCESS' WHERE host_id = ?",
                generation, hostId);

        assertThat(waiting.getAsyncResult(10_000)).as("answered by the notification of the commit")
                .isInstanceOf(RealizationStatus.class);
        mvc.perform(asyncDispatch(waiting)).andExpect(status().isOk())
                .andExpect(jsonPath("$.realizedGeneration").value(generation));
    }

    @Test
    void aLongPollAnswersAFailedPushWithItsReason() throws Exception {
        faulty = createHostWithNicAndTwoVms("esx-failing");
        awaitRealized(faulty, desiredGeneration(faulty));
        engines.failPushesTo(faulty);
        long generation = generation(putEdp(faulty, "{\"mode\": \"EDP_STANDARD\"}"));

        mvc.perform(asyncDispatch(longPoll(faulty, generation, "30s"))).andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("FAILED"))
                .andExpect(jsonPath("$.failureReason").value(containsString("injected fault")));
    }

    @Test
    void aLongPollThatRunsOutAnswersTheStatusAsItIs() throws Exception {
        var hostId = createHostWithNicAndTwoVms("esx-slow");
        long generation = changeWithPushesHeld(hostId);

        MvcResult waiting = longPoll(hostId, generation, "1s");
        // MockMvc has no container to time the request out: fire the timeout the way Tomcat would
        var context = (MockAsyncContext) waiting.getRequest().getAsyncContext();
        for (AsyncListener listener : context.getListeners()) {
            listener.onTimeout(new AsyncEvent(context));
        }
        mvc.perform(asyncDispatch(waiting)).andExpect(status().isOk())
                .andExpect(jsonPath("$.desiredGeneration").value(generation))
                .andExpect(jsonPath("$.realizedGeneration").value(generation - 1));
    }

    @Test
    void aWaitOrGenerationThatCannotBeMetIsA400NamingIt() throws Exception {
        var hostId = createHost("esx-bad-wait");
        long desired = desiredGeneration(hostId);
        String[][] refused = {{"wait=forever", "wait"}, {"wait=61s", "wait"}, {"wait=0s", "wait"},
                {"generation=0", "generation"}, {"wait=1s&generation=" + (desired + 1), "generation"}};
        for (String[] query : refused) {
            mvc.perform(get("/api/v1/hosts/" + hostId + "/realization?" + query[0]).with(viewer()))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.errors[0].field").value(query[1]));
        }
    }

    @Test
    void statusReadsAndLongPollsGiveBackTheirPlaceInTheDatabaseBulkhead() throws Exception {
        var hostId = createHost("esx-many-reads");
        long desired = desiredGeneration(hostId);
        for (int read = 0; read < 120; read++) { // more than the bulkhead's 100 places
            mvc.perform(asyncDispatch(longPoll(hostId, desired, "5s"))).andExpect(status().isOk());
        }
        createHost("esx-after-the-reads");
    }

    /** Once the host runs what it has, holds every push and changes its mode; returns the new generation. */
    private long changeWithPushesHeld(UUID hostId) throws Exception {
        awaitRealized(hostId, desiredGeneration(hostId));
        engines.holdPushes();
        return generation(putEdp(hostId, "{\"mode\": \"EDP_STANDARD\"}"));
    }

    private MvcResult longPoll(UUID hostId, long generation, String wait) throws Exception {
        MvcResult started = mvc.perform(get("/api/v1/hosts/" + hostId + "/realization?generation=" + generation
                + "&wait=" + wait).with(viewer())).andReturn();
        assertThat(started.getRequest().isAsyncStarted()).as("a long poll").isTrue();
        return started;
    }

    private MockHttpServletResponse putEdp(UUID hostId, String settings)
            throws Exception {
        return mvc.perform(put("/api/v1/hosts/" + hostId + "/edp").with(operator())
                        .contentType(MediaType.APPLICATION_JSON).content("{\"settings\": " + settings + "}"))
                .andExpect(status().isOk()).andReturn().getResponse();
    }

    private static long generation(MockHttpServletResponse response) {
        String header = response.getHeader(DesiredGenerationHeader.HEADER);
        assertThat(header).as(DesiredGenerationHeader.HEADER).isNotNull();
        return Long.parseLong(header);
    }
}
