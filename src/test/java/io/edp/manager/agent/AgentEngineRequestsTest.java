package io.edp.manager.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.edp.agent.EngineJson;
import io.edp.manager.EdpProcess;
import io.edp.manager.LiveApi;
import io.edp.manager.ManagerProcess;
import io.edp.manager.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Operator actions on the engine of a host placed AGENT travel to its agent and answer as for an embedded host.
 * Two replicas on one PostgreSQL: this test's manager (A, which also runs the embedded engines) takes every operator
 * request, while the agent, a real {@code edp agent} process, long-polls only a second manager process (B). The same
 * operations, with the same expected values, run against an embedded host and the agent's host, and their answers
 * have the same members. Then, the agent killed, a command is answered 504 saying that the agent is not connected.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=" + AgentEngineRequestsTest.OPERATOR,
        "edp.security.operator.password={noop}" + AgentEngineRequestsTest.SECRET,
        "edp.engines.mbufs=4096",
        "edp.engines.real-drivers=false",
        "edp.agent.connected-within=3s",
        "edp.agent.request-timeout=5s"})
class AgentEngineRequestsTest {

    static final String OPERATOR = "requests-operator";
    static final String SECRET = "operator-secret";
    private static final String TO_THE_VM = """
            {"nic": "%s", "flows": 100, "packets": %d, "packetsPerSecond": %d, "destinationMac": "00:50:56:aa:bb:01"}""";

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @TempDir
    Path dir;

    private LiveApi api;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    @BeforeEach
    void api() {
        TestDatabase.empty(jdbc);
        api = new LiveApi(port);
    }

    @Test
    void operatorActionsOnAnAgentsEngineTravelThroughAnotherReplicaAndAnswerAsForAnEmbeddedEngine() throws Exception {
        int rule = JsonPath.read(send("POST", "/api/v1/firewall/rules", """
                {"name": "udp-in", "priority": 10, "source": "10.0.0.0/24", "destination": "any", "protocol": "udp",
                 "action": "ALLOW"}""", 201).body(), "$.id");
        var embedded = api.writeHostWithAVm("esx-embedded", OPERATOR, SECRET).hostId();
        var agentHost = api.writeHostWithAVm("esx-agent", "AGENT", OPERATOR, SECRET).hostId();
        var token = dir.resolve("token");
        Files.writeString(token, JsonPath.<String>read(send("POST", "/api/v1/hosts/" + agentHost + "/agent-token",
                null, 201).body(), "$.token"));
        var env = TestDatabase.environment();
        var database = new ManagerProcess.Database(env.get("SPRING_DATASOURCE_URL"),
                env.get("SPRING_DATASOURCE_USERNAME"), env.getOrDefault("SPRING_DATASOURCE_PASSWORD", ""));

        try (var replicaB = ManagerProcess.start("replica-b", database, dir, "--edp.engines.embedded=false")) {
            replicaB.awaitReady(Duration.ofSeconds(90));
            try (var agent = EdpProcess.start("agent", dir.resolve("agent.log"), List.of("agent", "--manager",
                    replicaB.api().base(), "--host", "esx-agent", "--token-file", token.toString(),
                    "--pcap-dir", dir.resolve("pcap").toString(), "--stats-interval", "300ms"))) {
                var onEmbedded = operations(embedded, rule);
                Map<String, HttpResponse<String>> onAgent;
                try {
                    onAgent = operations(agentHost, rule);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\nagent's log:\n" + agent.logTail(), e);
                }
                onEmbedded.forEach((operation, answer) -> {
                    assertThat(onAgent.get(operation).statusCode()).as(operation).isEqualTo(answer.statusCode());
                    assertThat(members(onAgent.get(operation).body())).as(operation + ": the same members")
                            .isEqualTo(members(answer.body()));
                });

                agent.kill();
                LiveApi.await("the killed agent to show as not connected", () -> send("GET", "/api/v1/hosts/"
                        + agentHost, null, 200).body(), host -> !JsonPath.<Boolean>read(host, "$.agent.connected"));
                var started = Instant.now();
                var flush = send("POST", "/api/v1/hosts/" + agentHost + "/stats/flow-cache/flush", null, 504);
                assertThat(Duration.between(started, Instant.now())).as("edp.agent.request-timeout")
                        .isGreaterThanOrEqualTo(Duration.ofSeconds(5)).isLessThan(Duration.ofSeconds(15));
                assertThat(JsonPath.<String>read(flush.body(), "$.detail")).contains("did not answer within 5000 ms")
                        .contains("it is not connected (last seen");
                assertThat(jdbc.queryForObject("SELECT count(*) FROM engine_request", Integer.class))
                        .as("a request is deleted once its caller is done").isZero();
            }
        }
    }

    /**
     * The engine operations of the API on one host of {@link LiveApi#writeHostWithAVm}, each asserted as
     * FirewallOperationsApiTest, StatsApiTest, TrafficApiTest and TraceApiTest do for an embedded host; the answers
     * by operation.
     */
    private Map<String, HttpResponse<String>> operations(UUID hostId, int rule) throws Exception {
        var host = "/api/v1/hosts/" + hostId;
        var answers = new LinkedHashMap<String, HttpResponse<String>>();
        LiveApi.await("the host's fast path", () -> send("GET", host + "/stats/flow-cache", null, null).body(),
                body -> body.contains("\"mode\":\"EDP_STANDARD\""));

        answers.put("traffic on another NIC", send("POST", host + "/traffic", TO_THE_VM.formatted("vmnic9", 0, 0),
                400));
        assertThat(JsonPath.<String>read(answers.get("traffic on another NIC").body(), "$.errors[0].field"))
                .isEqualTo("nic");
        answers.put("start traffic", send("POST", host + "/traffic", TO_THE_VM.formatted("vmnic0", 10_000, 0), 201));
        answers.put("traffic", LiveApi.await("10,000 frames at the VM", () -> send("GET", host + "/traffic", null,
                200), r -> JsonPath.<Integer>read(r.body(), "$.received") == 10_000));
        var sent = Instant.now(); // a top-flows snapshot taken after this counts every frame
        answers.put("flow received", send("GET", host + "/traffic/flows/5", null, 200));
        assertThat(JsonPath.<Integer>read(answers.get("flow received").body(), "$.received")).isEqualTo(100);

        answers.put("rule counters", send("GET", host + "/stats/firewall-rules", null, 200));
        var rules = answers.get("rule counters").body();
        assertThat(JsonPath.<Integer>read(rules, "$.rules[0].ruleId")).isEqualTo(rule);
        assertThat(JsonPath.<Integer>read(rules, "$.rules[0].packets")).isEqualTo(10_000);
        assertThat(JsonPath.<Integer>read(rules, "$.rules[0].connections")).isEqualTo(100);
        answers.put("connection table", send("GET", host + "/stats/connections", null, 200));
        assertThat(JsonPath.<Integer>read(answers.get("connection table").body(), "$.entries")).isEqualTo(100);
        assertThat(JsonPath.<Integer>read(answers.get("connection table").body(), "$.states.ACTIVE")).isEqualTo(100);
        answers.put("top flows", LiveApi.await("a top-flows snapshot of the traffic", () -> send("GET", host
                + "/stats/flows?size=5", null, 200), r -> Instant.parse(JsonPath.read(r.body(), "$.takenAt"))
                .isAfter(sent)));
        assertThat(JsonPath.<Integer>read(answers.get("top flows").body(), "$.items[0].packets")).isEqualTo(100);
        assertThat(JsonPath.<Integer>read(answers.get("top flows").body(), "$.page.totalElements")).isEqualTo(100);
        answers.put("telemetry", send("GET", host + "/stats/telemetry", null, 200));
        answers.put("packet log", send("GET", host + "/stats/packet-log", null, 200));

        answers.put("trace", send("POST", host + "/trace", """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.5", "destinationIp": "10.128.0.1", "protocol": "udp",
                 "sourcePort": 1029, "destinationPort": 5001, "destinationMac": "00:50:56:aa:bb:01"}""", 200));
        var trace = answers.get("trace").body();
        assertThat(JsonPath.<String>read(trace, "$.ingress")).isEqualTo("vmnic0");
        assertThat(JsonPath.<String>read(trace, "$.firewall.connection")).isEqualTo("ACTIVE");
        assertThat(JsonPath.<String>read(trace, "$.verdict.outcome")).isEqualTo("FORWARDED");
        answers.put("flush", send("POST", host + "/stats/flow-cache/flush", null, 204));

        var connections = host + "/connections";
        answers.put("connections", send("GET", connections + "?address=10.0.0.5", null, 200));
        assertThat(JsonPath.<Integer>read(answers.get("connections").body(), "$.page.totalElements")).isEqualTo(1);
        assertThat(JsonPath.<Integer>read(answers.get("connections").body(), "$.items[0].sourcePort"))
                .isEqualTo(1029);
        answers.put("clear one", send("DELETE", connections + "/17-10.0.0.5-1029-10.128.0.1-5001", null, 204));
        answers.put("clear one again", send("DELETE", connections + "/17-10.0.0.5-1029-10.128.0.1-5001", null,
                404));
        answers.put("clear by filter", send("DELETE", connections + "?address=10.0.0.0/28", null, 200));
        assertThat(JsonPath.<Integer>read(answers.get("clear by filter").body(), "$.cleared")).isEqualTo(15);
        answers.put("clear all", send("DELETE", connections, null, 200));
        assertThat(JsonPath.<Integer>read(answers.get("clear all").body(), "$.cleared")).isEqualTo(84);
        assertThat(JsonPath.<Integer>read(send("GET", host + "/stats/connections", null, 200).body(), "$.entries"))
                .isZero();

        answers.put("start endless traffic", send("POST", host + "/traffic", TO_THE_VM.formatted("vmnic0", 0, 1000),
                201));
        answers.put("traffic while running", send("POST", host + "/traffic", TO_THE_VM.formatted("vmnic0", 0, 1000),
                409));
        answers.put("stop traffic", send("DELETE", host + "/traffic", null, 200));
        assertThat(JsonPath.<Boolean>read(answers.get("stop traffic").body(), "$.running")).isFalse();
        return answers;
    }

    /** Every member path of a JSON answer (array elements as {@code []}), values left out. */
    private static TreeSet<String> members(String json) {
        var paths = new TreeSet<String>();
        if (!json.isBlank()) {
            collect(EngineJson.MAPPER.readTree(json), "$", paths);
        }
        return paths;
    }

    private static void collect(JsonNode node, String path, TreeSet<String> paths) {
        paths.add(path);
        if (node.isObject()) {
            for (Iterator<String> names = node.propertyNames().iterator(); names.hasNext(); ) {
                var name = names.next();
                collect(node.get(name), path + "." + name, paths);
            }
        } else if (node.isArray()) {
            node.forEach(element -> collect(element, path + "[]", paths));
        }
    }

    /** The operator's request; {@code expected}: its status, or null for any. */
    private HttpResponse<String> send(String method, String path, String json, Integer expected) throws Exception {
        var response = api.send(api.request(path, OPERATOR, SECRET).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").method(method, json == null
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json)).build());
        if (expected != null) {
            assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isEqualTo(expected);
        }
        return response;
    }
}
