package io.edp.manager.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.edp.agent.EngineJson;
import io.edp.manager.EdpProcess;
import io.edp.manager.LiveApi;
import io.edp.manager.LiveServerTest;
import io.edp.manager.realization.AgentRealization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A real agent process against the manager on a real port: an AGENT host realizes through it, a firewall change
 * reaches it, and a killed agent restarted converges on what changed meanwhile. The configuration it receives
 * reads back equal to the one the manager built (rules, routes, gateways, IPFIX, packet log). Its own context (a
 * real port) is closed afterwards.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=" + AgentIntegrationTest.OPERATOR,
        "edp.security.operator.password={noop}" + AgentIntegrationTest.SECRET,
        "edp.security.viewer.user=agent-viewer",
        "edp.security.viewer.password={noop}viewer-secret",
        "edp.engines.mbufs=4096",
        "edp.agent.stats-stale-after=2s",
        "edp.engines.real-drivers=false"})
class AgentIntegrationTest extends LiveServerTest {

    static final String OPERATOR = "agent-operator";
    static final String SECRET = "operator-secret";

    @Autowired
    AgentRealization realization;

    @TempDir
    Path dir;

    @Test
    void anAgentHostRealizesThroughItsAgentTakesChangesAndConvergesAfterARestart() throws Exception {
        var embedded = host("esx-embedded", "EMBEDDED");
        var hostId = host("esx-agent", "AGENT");
        globalSettings();
        write("PUT", "/api/v1/hosts/" + hostId + "/edp", "{\"settings\": {\"mode\": \"EDP_STANDARD\", "
                + "\"telemetryIpfix\": true, \"tlbEnabled\": true, \"dfwLogging\": {\"enabled\": true}}}", 200);
        write("POST", "/api/v1/firewall/rules", """
                {"name": "no-ssh", "priority": 10, "source": "any", "destination": "any", "protocol": "TCP",
                 "destinationPorts": "22", "action": "DROP"}""", 201);
        awaitRealized(embedded, desiredGeneration(embedded));
        long generation = desiredGeneration(hostId);
        assertThat(JsonPath.<String>read(realizationOf(hostId), "$.state"))
                .as("the reconciler pushed the embedded host but never claims the agent's").isEqualTo("PENDING");
        assertThat(realization.realizedByAgent(hostId)).as("no agent has reported running it").isEmpty();

        var token = token(hostId);
        try (var agent = agent(token)) {
            awaitRealized(hostId, generation, agent);

            // what the agent receives is exactly what the manager built, every feature included
            var desired = api.send(HttpRequest.newBuilder(URI.create(api.base()
                    + "/api/v1/agent/hosts/esx-agent/desired-state")).header("Authorization", "Bearer "
                    + Files.readString(token)).build());
            assertThat(desired.statusCode()).isEqualTo(200);
            var config = EngineJson.config(EngineJson.MAPPER.readTree(desired.body()).get("engine"));
            var built = realization.realizedByAgent(hostId).orElseThrow();
            assertThat(config).isEqualTo(built);
            assertThat(config.firewallRules()).hasSize(1);
            assertThat(config.routes()).hasSize(1);
            assertThat(config.gateways()).hasSize(1);
            assertThat(config.ipfix().collectors()).hasSize(1);
            assertThat(config.packetLog().servers()).hasSize(1);

            write("POST", "/api/v1/firewall/rules", """
                    {"name": "no-telnet", "priority": 20, "source": "any", "destination": "any",
                     "protocol": "TCP", "destinationPorts": "23", "action": "REJECT"}""", 201);
            awaitRealized(hostId, desiredGeneration(hostId), agent);

            var host = LiveApi.await("the agent to show as connected, with its statistics stored",
                    () -> get("/api/v1/hosts/" + hostId),
                    body -> JsonPath.<Boolean>read(body, "$.agent.connected") && jdbc.queryForObject(
                            "SELECT count(*) FROM host_agent WHERE stats IS NOT NULL", Integer.class) == 1);
            assertThat(JsonPath.<String>read(host, "$.agent.version")).isEqualTo("dev");
            assertThat(JsonPath.<String>read(host, "$.placement")).isEqualTo("AGENT");

            // statistics: the agent's last snapshot, with when it was taken; a command is answered by the agent
            var flowCache = LiveApi.await("the agent's statistics", () -> api.send(api.request("/api/v1/hosts/"
                    + hostId + "/stats/flow-cache", OPERATOR, SECRET).build()), r -> r.statusCode() == 200);
            assertThat(JsonPath.<String>read(flowCache.body(), "$.mode")).isEqualTo("EDP_STANDARD");
            assertThat(flowCache.headers().firstValue("EDP-Stats-Stale")).hasValue("false");
            assertThat(flowCache.headers().firstValue("EDP-Stats-Taken-At")).isPresent();
            write("POST", "/api/v1/hosts/" + hostId + "/stats/flow-cache/flush", null, 204);
            agent.kill();
            LiveApi.await("the snapshot of the killed agent to be shown stale", () -> api.send(api.request(
                    "/api/v1/hosts/" + hostId + "/stats/threads", OPERATOR, SECRET).build()),
                    r -> r.statusCode() == 200 && r.headers().firstValue("EDP-Stats-Stale").orElse("").equals("true"));
        }
        // changed while no agent runs: the restarted one converges on it
        write("DELETE", "/api/v1/firewall/rules/"
                + jdbc.queryForObject("SELECT id FROM firewall_rule WHERE name = 'no-ssh'", Long.class), null, 200);
        long whileDown = desiredGeneration(hostId);
        try (var agent = agent(token)) {
            awaitRealized(hostId, whileDown, agent);
            agent.close();
            assertThat(agent.logTail()).as("SIGTERM closes the engine").contains("stopped, engine closed");
        }
    }

    @Test
    void anAgentTokenReachesOnlyItsOwnHostsAgentEndpointsAndNoAccountReachesThem() throws Exception {
        var a = bareHost("esx-a", "AGENT");
        var b = bareHost("esx-b", "AGENT");
        var embedded = bareHost("esx-c", "EMBEDDED");
        var tokenA = Files.readString(token(a));
        var tokenB = Files.readString(token(b));
        var tokenC = Files.readString(token(embedded));
        var report = "{\"generation\": 1, \"state\": \"SUCCESS\"}";

        assertThat(agentCall(tokenA, "GET", "/api/v1/agent/hosts/esx-a/desired-state", null)).isEqualTo(200);
        var answer = "{\"result\": 1}";
        var requestOfB = UUID.randomUUID();
        for (var path : List.of("/desired-state", "/realization", "/stats", "/engine-requests/" + requestOfB)) {
            var method = path.equals("/desired-state") ? "GET" : "PUT";
            var body = path.startsWith("/engine-requests/") ? answer : report;
            assertThat(agentCall(tokenA, method, "/api/v1/agent/hosts/esx-b" + path, body))
                    .as("host A's token on host B's " + path).isEqualTo(403);
            assertThat(basicCall(OPERATOR, SECRET, method, "/api/v1/agent/hosts/esx-a" + path, body))
                    .as("the operator on an agent's " + path).isEqualTo(403);
            assertThat(basicCall("agent-viewer", "viewer-secret", method, "/api/v1/agent/hosts/esx-a" + path,
                    body)).as("a viewer on an agent's " + path).isEqualTo(403);
        }

        // a request queued for B's engine: A's agent is neither handed it nor may answer it; B's agent is and may
        jdbc.update("INSERT INTO engine_request (id, host_id, request, deadline) VALUES (?, ?, "
                + "'{\"kind\": \"CONNECTION_STATS\"}', now() + interval '1 minute')", requestOfB, b);
        assertThat(JsonPath.<List<Object>>read(agentBody(tokenA, "/api/v1/agent/hosts/esx-a/desired-state"),
                "$.requests")).as("host A's requests").isEmpty();
        assertThat(agentCall(tokenA, "PUT", "/api/v1/agent/hosts/esx-a/engine-requests/" + requestOfB, answer))
                .as("host A's token answering B's request on its own path").isEqualTo(404);
        assertThat(JsonPath.<List<String>>read(agentBody(tokenB, "/api/v1/agent/hosts/esx-b/desired-state"),
                "$.requests[*].id")).containsExactly(requestOfB.toString());
        assertThat(JsonPath.<List<Object>>read(agentBody(tokenB, "/api/v1/agent/hosts/esx-b/desired-state"),
                "$.requests")).as("handed out once").isEmpty();
        assertThat(agentCall(tokenB, "PUT", "/api/v1/agent/hosts/esx-b/engine-requests/" + requestOfB, answer))
                .isEqualTo(204);
        assertThat(agentCall(tokenB, "PUT", "/api/v1/agent/hosts/esx-b/engine-requests/" + requestOfB, answer))
                .as("answered already").isEqualTo(404);
        for (var operatorEndpoint : List.of("/api/v1/hosts", "/api/v1/hosts/" + a, "/api/v1/hosts/" + a
                + "/realization", "/api/v1/firewall/rules", "/api/v1/accounts", "/api/v1/audit-events")) {
            assertThat(agentCall(tokenA, "GET", operatorEndpoint, null)).as("host A's token on " + operatorEndpoint)
                    .isEqualTo(403);
        }
        assertThat(agentCall(tokenA, "POST", "/api/v1/hosts/" + a + "/agent-token", null)).isEqualTo(403);
        assertThat(agentCall(tokenA, "PUT", "/api/v1/hosts/" + a, """
                {"name": "esx-a", "managementAddress": "192.0.2.11", "placement": "EMBEDDED",
                 "numaNodes": [{"id": 0, "cpuCores": [0, 1]}]}""")).isEqualTo(403);
        assertThat(jdbc.queryForList("SELECT method FROM audit_event WHERE username = 'agent:esx-a' AND status = 403"
                + " ORDER BY id", String.class)).as("the refused writes in the audit trail, by the agent's name")
                .containsExactly("POST", "PUT");
        assertThat(basicCall("agent-viewer", "viewer-secret", "POST", "/api/v1/hosts/" + a + "/agent-token", null))
                .as("a viewer issuing a token").isEqualTo(403);
        assertThat(agentCall("not-a-token", "GET", "/api/v1/agent/hosts/esx-a/desired-state", null)).isEqualTo(401);
        assertThat(api.send(HttpRequest.newBuilder(URI.create(api.base() + "/api/v1/agent/hosts/esx-a/desired-state"))
                .build()).statusCode()).as("no credentials").isEqualTo(401);

        // an embedded host's agent runs nothing and may not report
        var embeddedState = agentBody(tokenC, "/api/v1/agent/hosts/esx-c/desired-state");
        assertThat(JsonPath.<Object>read(embeddedState, "$.engine")).isNull();
        assertThat(agentCall(tokenC, "PUT", "/api/v1/agent/hosts/esx-c/realization", report)).isEqualTo(409);

        // a new token replaces the old one at once
        var newTokenA = Files.readString(token(a));
        assertThat(agentCall(tokenA, "GET", "/api/v1/agent/hosts/esx-a/desired-state", null)).isEqualTo(401);
        assertThat(agentCall(newTokenA, "GET", "/api/v1/agent/hosts/esx-a/desired-state", null)).isEqualTo(200);
        assertThat(agentCall(newTokenA, "PUT", "/api/v1/agent/hosts/esx-a/realization", report)).isEqualTo(204);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM audit_event WHERE path LIKE '/api/v1/agent/%'",
                Integer.class)).as("agents' reports are not audited").isZero();
    }

    private int agentCall(String token, String method, String path, String json) throws Exception {
        return call(HttpRequest.newBuilder(URI.create(api.base() + path)).header("Authorization", "Bearer " + token),
                method, json);
    }

    private String agentBody(String token, String path) throws Exception {
        var response = api.send(HttpRequest.newBuilder(URI.create(api.base() + path))
                .header("Authorization", "Bearer " + token).build());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    private int basicCall(String user, String password, String method, String path, String json) throws Exception {
        return call(api.request(path, user, password), method, json);
    }

    private int call(HttpRequest.Builder request, String method, String json) throws Exception {
        return api.send(request.header("Content-Type", "application/json").method(method, json == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json)).build())
                .statusCode();
    }

    private UUID bareHost(String name, String placement) throws Exception {
        return api.create("/api/v1/hosts", """
                {"name": "%s", "managementAddress": "192.0.2.11", "placement": "%s",
                 "numaNodes": [{"id": 0, "cpuCores": [0, 1]}]}""".formatted(name, placement), OPERATOR, SECRET);
    }

    private UUID host(String name, String placement) throws Exception {
        var hostId = bareHost(name, placement);
        api.create("/api/v1/hosts/" + hostId + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""", OPERATOR, SECRET);
        var vm = api.create("/api/v1/hosts/" + hostId + "/vms", """
                {"name": "web", "vcpus": 2, "numaNode": 0}""", OPERATOR, SECRET);
        api.create("/api/v1/hosts/" + hostId + "/vms/" + vm + "/vnics", """
                {"mac": "00:50:56:aa:bb:01", "vlan": 10, "adapterType": "VMXNET3", "rxQueues": 1}""",
                OPERATOR, SECRET);
        return hostId;
    }

    private void globalSettings() throws Exception {
        write("POST", "/api/v1/routing/routes", """
                {"prefix": "10.128.0.0/16", "nextHopMac": "02:00:00:00:00:fe", "output": "vmnic0", "vlan": 10}""",
                201);
        write("POST", "/api/v1/routing/gateways", "{\"vlan\": 10, \"ipv4\": \"10.0.10.1\"}", 201);
        write("POST", "/api/v1/ipfix-collectors", "{\"address\": \"192.0.2.10\", \"port\": 4739}", 201);
        write("POST", "/api/v1/syslog-servers", "{\"host\": \"127.0.0.1\", \"port\": 514, \"transport\": \"UDP\"}",
                201);
    }

    private Path token(UUID hostId) throws Exception {
        var issued = write("POST", "/api/v1/hosts/" + hostId + "/agent-token", null, 201);
        var file = dir.resolve("token");
        Files.writeString(file, JsonPath.<String>read(issued.body(), "$.token"));
        return file;
    }

    private HttpResponse<String> write(String method, String path, String json, int expected) throws Exception {
        var response = api.send(api.request(path, OPERATOR, SECRET).header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json)).build());
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isEqualTo(expected);
        return response;
    }

    /** The generation the writes so far gave the host (each write above has committed when it answered). */
    private long desiredGeneration(UUID hostId) throws Exception {
        return JsonPath.<Integer>read(realizationOf(hostId), "$.desiredGeneration");
    }

    private String get(String path) throws Exception {
        return api.send(api.request(path, OPERATOR, SECRET).build()).body();
    }

    private String realizationOf(UUID hostId) throws Exception {
        return get("/api/v1/hosts/" + hostId + "/realization");
    }

    private void awaitRealized(UUID hostId, long generation) throws Exception {
        LiveApi.await("host " + hostId + " to realize generation " + generation, Duration.ofSeconds(60),
                () -> realizationOf(hostId), body -> JsonPath.<Integer>read(body, "$.realizedGeneration") >= generation
                        && JsonPath.<String>read(body, "$.state").equals("SUCCESS"));
    }

    private void awaitRealized(UUID hostId, long generation, EdpProcess agent) throws Exception {
        try {
            awaitRealized(hostId, generation);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nagent's log:\n" + agent.logTail(), e);
        }
    }

    /** {@code edp agent} for host esx-agent in a JVM of its own, reporting statistics every 300 ms. */
    private EdpProcess agent(Path token) {
        return EdpProcess.start("agent", dir.resolve("agent.log"), List.of("agent", "--manager", api.base(),
                "--host", "esx-agent", "--token-file", token.toString(), "--pcap-dir", dir.resolve("pcap").toString(),
                "--stats-interval", "300ms"));
    }
}
