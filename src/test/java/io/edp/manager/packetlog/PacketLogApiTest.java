package io.edp.manager.packetlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Files;
import java.util.List;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

/**
 * The packet log's control plane: syslog servers as a global resource (ETags, problem details, every host's
 * generation), the firewall rules' log flag, the dfwLogging settings (inherited and checked like every EDP
 * setting), and a host's packet-log statistics and metrics from its running engine.
 */
class PacketLogApiTest extends ManagerTest {

    private static final String SERVERS = "/api/v1/syslog-servers";

    @Autowired
    private PacketLogDirectory directory;

    @Test
    void syslogServersAreVersionedCheckedAndPushedToEveryHost() throws Exception {
        var hosts = List.of(createHost("esx-syslog-1"), createHost("esx-syslog-2"));
        var before = desiredGenerations(hosts);
        var created = created(SERVERS, "{\"host\": \"Syslog.Example.com\", \"transport\": \"udp\"}");
        int id = JsonPath.read(created, "$.id");
        assertThat(JsonPath.<Integer>read(created, "$.port")).isEqualTo(514);
        assertThat(JsonPath.<String>read(created, "$.host")).isEqualTo("syslog.example.com");
        assertThat(desiredGenerations(hosts)).containsExactly(before.get(0) + 1, before.get(1) + 1);

        mvc.perform(get(SERVERS + "/" + id).with(viewer()))
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"0\""))
                .andExpect(jsonPath("$.transport").value("UDP"));
        var identical = "{\"host\": \"syslog.example.com\", \"port\": 514, \"transport\": \"UDP\"}";
        replace(id, "\"0\"", identical).andExpect(status().isOk()).andExpect(header().string("ETag", "\"0\""));
        assertThat(desiredGenerations(hosts)).as("an identical PUT bumps nothing")
                .containsExactly(before.get(0) + 1, before.get(1) + 1);
        replace(id, "\"0\"", "{\"host\": \"syslog.example.com\", \"port\": 6514, \"transport\": \"TCP\"}")
                .andExpect(status().isOk()).andExpect(header().string("ETag", "\"1\""));
        replace(id, "\"0\"", identical)
                .andExpect(status().isPreconditionFailed())
                .andExpect(header().string("Content-Type", "application/problem+json"));

        mvc.perform(post(SERVERS).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"host\": \"syslog.example.com\", \"port\": 6514, \"transport\": \"TCP\"}"))
                .andExpect(status().isConflict())
                .andExpect(header().string("Content-Type", "application/problem+json"));
        mvc.perform(post(SERVERS).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"host\": \"a host\", \"port\": 70000, \"transport\": \"SCTP\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(header().string("Content-Type", "application/problem+json"));
        mvc.perform(post(SERVERS).with(viewer()).contentType(MediaType.APPLICATION_JSON).content(identical))
                .andExpect(status().isForbidden());

        mvc.perform(get(SERVERS + "?host=syslog.example.com").with(viewer()))
                .andExpect(jsonPath("$.items.length()").value(1))
                .andExpect(jsonPath("$.items[0].port").value(6514));
        mvc.perform(delete(SERVERS + "/" + id).with(operator()).header("If-Match", "\"1\""))
                .andExpect(status().isOk()).andExpect(jsonPath("$.bumpedHosts").isArray());
        mvc.perform(get(SERVERS + "/" + id).with(viewer())).andExpect(status().isNotFound());
    }

    @Test
    void dfwLoggingIsInheritedFieldByFieldAndChecked() throws Exception {
        var hostId = createHost("esx-dfwlog-settings").toString();
        created("/api/v1/edp-profiles", """
                {"name": "logged", "settings": {"dfwLogging": {"enabled": true, "linesPerSecond": 50}}}""");
        putEdp(hostId, """
                {"profile": "logged", "settings": {"dfwLogging": {"file": "esx-01.dfwpktlogs.log"}}}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.effective.dfwLogging.enabled").value(true))
                .andExpect(jsonPath("$.effective.dfwLogging.linesPerSecond").value(50))
                .andExpect(jsonPath("$.effective.dfwLogging.file").value("esx-01.dfwpktlogs.log"))
                .andExpect(jsonPath("$.effective.dfwLogging.fileCount").value(5));
        putEdp(hostId, """
                {"settings": {"dfwLogging": {"linesPerSecond": 0, "file": "/etc/passwd"}}}""")
                .andExpect(status().isBadRequest())
                .andExpect(header().string("Content-Type", "application/problem+json"));
        putEdp(hostId, """
                {"settings": {"dfwLogging": {"file": "../../etc/passwd"}}}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("settings.dfwLogging.file"));
        mvc.perform(get("/api/v1/hosts/" + hostId + "/edp").with(viewer()))
                .andExpect(jsonPath("$.effective.dfwLogging.linesPerSecond").value(50));
    }

    @Test
    void aLoggedRuleWritesOneLinePerFlowToTheFileAndTheStatsCountThem() throws Exception {
        var hostId = hostWithAVm("esx-dfwlog");
        var name = "esx-dfwlog-" + UUID.randomUUID() + ".log"; // in the manager's packet-log directory
        var file = directory.dir().resolve(name);
        var rule = created("/api/v1/firewall/rules", """
                {"name": "logged", "priority": 1, "source": "any", "destination": "any", "protocol": "ANY",
                 "action": "ALLOW", "log": true}""");
        assertThat(JsonPath.<Boolean>read(rule, "$.log")).isTrue();
        putEdp(hostId, """
                {"settings": {"mode": "EDP_STANDARD", "dfwLogging": {"enabled": true, "file": "%s"}}}"""
                .formatted(name)).andExpect(status().isOk());
        sendTenThousandFramesToTheVm(hostId);

        // 100 flows: 100 connections start (the other 9,900 frames are their middle packets), each logged at the
        // VM's interface as it arrives there
        await("100 lines written", () -> responseBody("/api/v1/hosts/" + hostId + "/stats/packet-log"),
                log -> JsonPath.<Integer>read(log, "$.linesWritten") == 100);
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/packet-log").with(viewer()))
                .andExpect(jsonPath("$.enabled").value(true))
                .andExpect(jsonPath("$.linesQueued").value(100))
                .andExpect(jsonPath("$.linesSuppressed").value(0))
                .andExpect(jsonPath("$.outputErrors").value(0));
        mvc.perform(get("/api/v1/hosts/" + hostId + "/stats/telemetry").with(viewer()))
                .andExpect(jsonPath("$.packetLog.linesWritten").value(100))
                .andExpect(jsonPath("$.packetLog.linesSuppressed").value(0));
        await("the lines in the file", () -> Files.exists(file) ? Files.readAllLines(file) : List.<String>of(),
                lines -> lines.size() == 100);
        assertThat(Files.readAllLines(file)).allSatisfy(line -> assertThat(line)
                .matches("\\S+Z web-eth1 INET match PASS " + JsonPath.read(rule, "$.id") + " IN \\d+ UDP .*"));
        assertThat(responseBody("/actuator/prometheus")).containsPattern(
                "edp_packetlog_queued_total\\{host=\"esx-dfwlog\",host_id=\"" + hostId + "\"} 100");
        mvc.perform(get("/api/v1/hosts/" + UUID.randomUUID() + "/stats/packet-log").with(viewer()))
                .andExpect(status().isNotFound());
        mvc.perform(delete("/api/v1/hosts/" + hostId).with(operator())).andExpect(status().isNoContent());
        await("the engine to close its file", () -> mvc.perform(get("/api/v1/hosts/" + hostId
                + "/stats/packet-log").with(viewer())).andReturn().getResponse().getStatus(), code -> code == 404);
        Files.delete(file);
    }

    private ResultActions replace(int id, String ifMatch, String json) throws Exception {
        return mvc.perform(put(SERVERS + "/" + id).with(operator()).header("If-Match", ifMatch)
                .contentType(MediaType.APPLICATION_JSON).content(json));
    }

}
