package io.edp.manager.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
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
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import io.edp.agent.EngineJson;
import io.edp.bench.HostCommand;
import io.edp.manager.EdpProcess;
import io.edp.manager.LiveApi;
import io.edp.manager.ManagerProcess;
import io.edp.manager.LiveServerTest;
import io.edp.manager.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

/**
 * Operator actions on the engine of a host placed AGENT travel to its agent and answer as for an embedded host; so
 * do those on an embedded host taken by a replica that runs no engines. Two replicas on one PostgreSQL: this test's
 * manager (A, which also runs the embedded engines) takes the operator requests, while the agent, a real {@code edp
 * agent} process, long-polls only a second manager process (B, {@code edp.engines.embedded=false}). The same
 * operations, with the same expected values, run against an embedded host through A, the agent's host through A, and
 * a second embedded host through B (relayed to A's engine), and their answers have the same members. Live captures
 * of the agent's host work through either replica, their files uploaded by the agent. Then, the agent killed, a
 * command is answered 504 saying that the agent is not connected. B keeps the agent tokens it verified, and refuses
 * one replaced, or whose host was deleted, through A as soon as A's commit is notified.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=" + AgentEngineRequestsTest.OPERATOR,
        "edp.security.operator.password={noop}" + AgentEngineRequestsTest.SECRET,
        "edp.engines.mbufs=4096",
        "edp.engines.real-drivers=false",
        "edp.agent.connected-within=3s",
        "edp.agent.request-timeout=5s"})
class AgentEngineRequestsTest extends LiveServerTest {

    static final String OPERATOR = "requests-operator";
    static final String SECRET = "operator-secret";
    private static final String VM_MAC = "00:50:56:aa:bb:01";
    private static final String PCAP = "application/vnd.tcpdump.pcap";
    private static final String TO_THE_VM = """
            {"nic": "%s", "flows": 100, "packets": %d, "packetsPerSecond": %d, \
            "destinationMac": "00:50:56:aa:bb:01"}""";

    @TempDir
    Path dir;

    @Test
    void operatorActionsOnAnAgentsEngineTravelThroughAnotherReplicaAndAnswerAsForAnEmbeddedEngine() throws Exception {
        int rule = JsonPath.read(send("POST", "/api/v1/firewall/rules", """
                {"name": "udp-in", "priority": 10, "source": "10.0.0.0/24", "destination": "any", "protocol": "udp",
                 "action": "ALLOW"}""", 201).body(), "$.id");
        var embedded = api.writeHostWithAVm("esx-embedded", OPERATOR, SECRET).hostId();
        var embeddedViaB = api.writeHostWithAVm("esx-embedded-b", OPERATOR, SECRET).hostId();
        var agentHost = api.writeHostWithAVm("esx-agent", "AGENT", OPERATOR, SECRET).hostId();
        var token = dir.resolve("token");
        // another host's token, for the uploads an agent may not make
        Files.writeString(dir.resolve("embedded-token"), JsonPath.<String>read(send("POST", "/api/v1/hosts/"
                + embedded + "/agent-token", null, 201).body(), "$.token"));
        Files.writeString(token, JsonPath.<String>read(send("POST", "/api/v1/hosts/" + agentHost + "/agent-token",
                null, 201).body(), "$.token"));
        var unreported = send("GET", "/api/v1/hosts/" + agentHost + "/stats/flow-cache", null, 503).body();
        assertThat(JsonPath.<String>read(unreported, "$.detail")).contains("has not reported its engine yet");
        var env = TestDatabase.environment();
        var database = new ManagerProcess.Database(env.get("SPRING_DATASOURCE_URL"),
                env.get("SPRING_DATASOURCE_USERNAME"), env.getOrDefault("SPRING_DATASOURCE_PASSWORD", ""));

        try (var replicaB = ManagerProcess.start("replica-b", database, dir, "--edp.engines.embedded=false")) {
            replicaB.awaitReady(Duration.ofSeconds(90));
            tokensChangedThroughAReachB(replicaB.api());
            try (var agent = EdpProcess.start("agent", dir.resolve("agent.log"), List.of("agent", "--manager",
                    replicaB.api().base(), "--host", "esx-agent", "--token-file", token.toString(),
                    "--pcap-dir", dir.resolve("pcap").toString(), "--capture-dir", dir.resolve("agent-captures")
                    .toString(), "--stats-interval", "300ms"))) {
                var a = new Replica(api, OPERATOR, SECRET);
                var onEmbedded = operations(a, embedded, rule);
                Map<String, HttpResponse<String>> onAgent;
                try {
                    onAgent = operations(a, agentHost, rule);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\nagent's log:\n" + agent.logTail(), e);
                }
                var b = new Replica(replicaB.api(), ManagerProcess.OPERATOR, ManagerProcess.PASSWORD);
                var relayed = operations(b, embeddedViaB, rule);
                for (var other : List.of(onAgent, relayed)) {
                    onEmbedded.forEach((operation, answer) -> {
                        assertThat(other.get(operation).statusCode()).as(operation).isEqualTo(answer.statusCode());
                        assertThat(members(other.get(operation).body())).as(operation + ": the same members")
                                .isEqualTo(members(answer.body()));
                    });
                }
                var flowCache = "/api/v1/hosts/" + embeddedViaB + "/stats/flow-cache";
                assertThat(JsonPath.<Integer>read(b.send("GET", flowCache, null, 200).body(), "$.generation"))
                        .as("B reads the generation A's engine runs")
                        .isEqualTo(JsonPath.<Integer>read(send("GET", flowCache, null, 200).body(), "$.generation"));
                assertThat(JsonPath.<String>read(b.send("POST", "/api/v1/hosts/" + embeddedViaB + "/captures",
                        "{\"port\": \"vmnic0\"}", 409).body(), "$.detail")).contains("edp.engines.embedded");

                // a traffic run lives in the engine: started through one replica, any other reads and stops it
                for (var hostId : List.of(embeddedViaB, agentHost)) {
                    var traffic = "/api/v1/hosts/" + hostId + "/traffic";
                    b.send("POST", traffic, TO_THE_VM.formatted("vmnic0", 0, 1000), 201);
                    var status = send("GET", traffic, null, 200).body();
                    assertThat(JsonPath.<Boolean>read(status, "$.running")).as(status).isTrue();
                    assertThat(JsonPath.<Integer>read(status, "$.profile.packetsPerSecond")).isEqualTo(1000);
                    assertThat(JsonPath.<Boolean>read(send("DELETE", traffic, null, 200).body(), "$.running"))
                            .isFalse();
                    assertThat(JsonPath.<Boolean>read(b.send("GET", traffic, null, 200).body(), "$.running"))
                            .isFalse();
                }

                try {
                    captures(a, b, agentHost, Files.readString(dir.resolve("embedded-token")), token,
                            dir.resolve("agent-captures"));
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\nagent's log:\n" + agent.logTail(), e);
                }

                // a rule's counters over every host, through the replica that runs no engine: all three answer
                var ruleStats = b.send("GET", "/api/v1/firewall/rules/" + rule + "/stats", null, 200).body();
                assertThat(JsonPath.<List<String>>read(ruleStats, "$.hosts[*].hostId")).containsExactlyInAnyOrder(
                        embedded.toString(), agentHost.toString(), embeddedViaB.toString());
                assertThat(JsonPath.<List<Integer>>read(ruleStats, "$.hosts[*].packets"))
                        .allSatisfy(packets -> assertThat(packets).isGreaterThanOrEqualTo(10_000));
                assertThat(JsonPath.<Integer>read(ruleStats, "$.packets")).isEqualTo(JsonPath.<List<Integer>>read(
                        ruleStats, "$.hosts[*].packets").stream().mapToInt(Integer::intValue).sum());
                assertThat(JsonPath.<List<?>>read(ruleStats, "$.unanswered")).isEmpty();

                agent.kill();
                LiveApi.await("the killed agent to show as not connected", () -> send("GET", "/api/v1/hosts/"
                        + agentHost, null, 200).body(), host -> !JsonPath.<Boolean>read(host, "$.agent.connected"));
                var started = Instant.now();
                var flush = send("POST", "/api/v1/hosts/" + agentHost + "/stats/flow-cache/flush", null, 504);
                assertThat(Duration.between(started, Instant.now())).as("edp.agent.request-timeout")
                        .isGreaterThanOrEqualTo(Duration.ofSeconds(5)).isLessThan(Duration.ofSeconds(15));
                assertThat(JsonPath.<String>read(flush.body(), "$.detail")).contains("did not answer within 5000 ms")
                        .contains("it is not connected (last seen");
                var withoutAgent = send("GET", "/api/v1/firewall/rules/" + rule + "/stats", null, 200).body();
                assertThat(JsonPath.<List<String>>read(withoutAgent, "$.hosts[*].hostId"))
                        .containsExactlyInAnyOrder(embedded.toString(), embeddedViaB.toString());
                assertThat(JsonPath.<String>read(withoutAgent, "$.unanswered[0].hostId"))
                        .isEqualTo(agentHost.toString());
                assertThat(JsonPath.<String>read(withoutAgent, "$.unanswered[0].reason"))
                        .contains("did not answer within 5000 ms");
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
    private Map<String, HttpResponse<String>> operations(Replica via, UUID hostId, int rule) throws Exception {
        var host = "/api/v1/hosts/" + hostId;
        var answers = new LinkedHashMap<String, HttpResponse<String>>();
        // an agent's engine is known from its first statistics report: a JVM of its own, slow to start under load
        LiveApi.await("the host's fast path", Duration.ofSeconds(90), () -> via.send("GET", host
                + "/stats/flow-cache", null, null).body(), body -> body.contains("\"mode\":\"EDP_STANDARD\""));

        answers.put("traffic on another NIC", via.send("POST", host + "/traffic", TO_THE_VM.formatted("vmnic9", 0, 0),
                400));
        assertThat(JsonPath.<String>read(answers.get("traffic on another NIC").body(), "$.errors[0].field"))
                .isEqualTo("nic");
        answers.put("start traffic", via.send("POST", host + "/traffic", TO_THE_VM.formatted("vmnic0", 10_000, 0),
                201));
        answers.put("traffic", LiveApi.await("10,000 frames at the VM", () -> via.send("GET", host + "/traffic",
                null, 200), r -> JsonPath.<Integer>read(r.body(), "$.received") == 10_000));
        var delivered = Instant.now(); // a top-flows snapshot taken after this one counts every frame
        answers.put("flow received", via.send("GET", host + "/traffic/flows/5", null, 200));
        assertThat(JsonPath.<Integer>read(answers.get("flow received").body(), "$.received")).isEqualTo(100);

        answers.put("rule counters", via.send("GET", host + "/stats/firewall-rules", null, 200));
        var rules = answers.get("rule counters").body();
        assertThat(JsonPath.<Integer>read(rules, "$.rules[0].ruleId")).isEqualTo(rule);
        assertThat(JsonPath.<Integer>read(rules, "$.rules[0].packets")).isEqualTo(10_000);
        assertThat(JsonPath.<Integer>read(rules, "$.rules[0].connections")).isEqualTo(100);
        answers.put("connection table", via.send("GET", host + "/stats/connections", null, 200));
        assertThat(JsonPath.<Integer>read(answers.get("connection table").body(), "$.entries")).isEqualTo(100);
        assertThat(JsonPath.<Integer>read(answers.get("connection table").body(), "$.states.ACTIVE")).isEqualTo(100);
        answers.put("top flows", LiveApi.await("a top-flows snapshot of the traffic", () -> via.send("GET", host
                + "/stats/flows?size=5", null, 200), r -> Instant.parse(JsonPath.read(r.body(), "$.takenAt"))
                .isAfter(delivered)));
        assertThat(JsonPath.<Integer>read(answers.get("top flows").body(), "$.items[0].packets")).isEqualTo(100);
        assertThat(JsonPath.<Integer>read(answers.get("top flows").body(), "$.page.totalElements")).isEqualTo(100);
        answers.put("telemetry", via.send("GET", host + "/stats/telemetry", null, 200));
        answers.put("packet log", via.send("GET", host + "/stats/packet-log", null, 200));

        answers.put("trace", via.send("POST", host + "/trace", """
                {"ingress": "vmnic0", "sourceIp": "10.0.0.5", "destinationIp": "10.128.0.1", "protocol": "udp",
                 "sourcePort": 1029, "destinationPort": 5001, "destinationMac": "00:50:56:aa:bb:01"}""", 200));
        var trace = answers.get("trace").body();
        assertThat(JsonPath.<String>read(trace, "$.ingress")).isEqualTo("vmnic0");
        assertThat(JsonPath.<String>read(trace, "$.firewall.connection")).isEqualTo("ACTIVE");
        assertThat(JsonPath.<String>read(trace, "$.verdict.outcome")).isEqualTo("FORWARDED");
        answers.put("flush", via.send("POST", host + "/stats/flow-cache/flush", null, 204));

        var connections = host + "/connections";
        answers.put("connections", via.send("GET", connections + "?address=10.0.0.5", null, 200));
        assertThat(JsonPath.<Integer>read(answers.get("connections").body(), "$.page.totalElements")).isEqualTo(1);
        assertThat(JsonPath.<Integer>read(answers.get("connections").body(), "$.items[0].sourcePort"))
                .isEqualTo(1029);
        answers.put("clear one", via.send("DELETE", connections + "/17-10.0.0.5-1029-10.128.0.1-5001", null, 204));
        answers.put("clear one again", via.send("DELETE", connections + "/17-10.0.0.5-1029-10.128.0.1-5001", null,
                404));
        answers.put("clear by filter", via.send("DELETE", connections + "?address=10.0.0.0/28", null, 200));
        assertThat(JsonPath.<Integer>read(answers.get("clear by filter").body(), "$.cleared")).isEqualTo(15);
        answers.put("clear all", via.send("DELETE", connections, null, 200));
        assertThat(JsonPath.<Integer>read(answers.get("clear all").body(), "$.cleared")).isEqualTo(84);
        assertThat(JsonPath.<Integer>read(via.send("GET", host + "/stats/connections", null, 200).body(),
                "$.entries")).isZero();

        answers.put("start endless traffic", via.send("POST", host + "/traffic",
                TO_THE_VM.formatted("vmnic0", 0, 1000), 201));
        answers.put("traffic while running", via.send("POST", host + "/traffic",
                TO_THE_VM.formatted("vmnic0", 0, 1000), 409));
        answers.put("stop traffic", via.send("DELETE", host + "/traffic", null, 200));
        assertThat(JsonPath.<Boolean>read(answers.get("stop traffic").body(), "$.running")).isFalse();
        return answers;
    }

    /**
     * Live captures of the agent's host, started through A: the agent runs them with their files in its
     * --capture-dir and uploads them; either replica lists, shows, stops and serves them with an embedded host's
     * shapes and statuses. Another host's token uploads nothing for this host's captures.
     */
    private void captures(Replica a, Replica b, UUID hostId, String otherToken, Path token, Path captureDir)
            throws Exception {
        var captures = "/api/v1/hosts/" + hostId + "/captures";
        var limited = a.send("POST", captures, """
                {"port": "vmnic0", "direction": "RX", "filter": {"protocol": "udp"},
                 "maxPackets": 50, "durationSeconds": 600, "snaplen": 128}""", 201);
        var id = JsonPath.<String>read(limited.body(), "$.id");
        assertThat(limited.headers().firstValue("Location").orElseThrow()).endsWith(captures + "/" + id);
        assertThat(JsonPath.<String>read(limited.body(), "$.state")).isEqualTo("RUNNING");
        assertThat(JsonPath.<String>read(limited.body(), "$.port")).isEqualTo("vmnic0");
        // none of the traffic's frames: it runs until stopped
        var idle = JsonPath.<String>read(a.send("POST", captures, """
                {"port": "vmnic0", "direction": "RX", "filter": {"ports": [9]}}""", 201).body(), "$.id");
        var tooBig = b.send("POST", captures, """
                {"port": "vmnic0", "maxPackets": 1000000}""", 400).body();
        assertThat(JsonPath.<String>read(tooBig, "$.errors[0].field")).isEqualTo("maxPackets");

        a.send("POST", "/api/v1/hosts/" + hostId + "/traffic", """
                {"nic": "vmnic0", "flows": 100, "packets": 1000, "packetsPerSecond": 0,
                 "destinationMac": "%s"}""".formatted(VM_MAC), 201);
        var ended = LiveApi.await("the capture to end at its limit, seen through B", () -> b.send("GET",
                captures + "/" + id, null, 200).body(), c -> c.contains("\"state\":\"ENDED\""));
        assertThat(JsonPath.<String>read(ended, "$.endReason")).isEqualTo("PACKET_LIMIT");
        assertThat(JsonPath.<Integer>read(ended, "$.captured")).isEqualTo(50);
        assertThat(JsonPath.<List<String>>read(b.send("GET", captures, null, 200).body(), "$[*].id"))
                .containsExactly(id, idle);

        for (var via : List.of(b, a)) {
            var pcap = pcap(via, captures + "/" + id + "/pcap");
            assertThat(pcap.headers().firstValue("Content-Type")).hasValue(PCAP);
            assertThat(pcap.headers().firstValue("Content-Disposition").orElseThrow())
                    .contains(id + ".pcap");
            var file = Files.write(dir.resolve("via-" + via.api().base().hashCode() + ".pcap"),
                    pcap.body());
            assertThat(HostCommand.run("tshark", "-r", file.toString(), "-Tfields", "-e", "eth.dst",
                    "-e", "ip.proto", "-e", "frame.cap_len").lines().toList()).hasSize(50)
                    .allSatisfy(f -> assertThat(f).matches(VM_MAC + "\t17\t\\d+"));
        }
        // the ended capture's final file was uploaded: the agent deleted its copy
        LiveApi.await("the agent to delete the uploaded file", () -> files(captureDir),
                files -> !files.contains(id + ".pcap"));

        // a running capture's file as written so far: the header alone, no frame
        var running = Files.write(dir.resolve("running.pcap"),
                pcap(b, captures + "/" + idle + "/pcap").body());
        assertThat(HostCommand.run("tshark", "-r", running.toString()).lines()).isEmpty();

        var upload = "/api/v1/agent/hosts/esx-agent/captures/" + idle;
        var ownToken = Files.readString(token);
        assertThat(agentPut(otherToken, upload + "/file", PCAP, new byte[24]))
                .as("another host's token on this host's path").isEqualTo(403);
        var otherPath = "/api/v1/agent/hosts/esx-embedded/captures/" + idle;
        assertThat(agentPut(otherToken, otherPath + "/file", PCAP, new byte[24]))
                .as("another host's token for this host's capture, on its own path").isEqualTo(404);
        assertThat(agentPut(otherToken, otherPath + "/stats", "application/json", """
                {"state": "ENDED", "endReason": "STOPPED", "captured": 0, "dropped": 0, "bytes": 0,
                 "fileBytes": 24, "endedAt": "2026-01-01T00:00:00Z"}""".getBytes()))
                .as("another host's token for this host's capture's state").isEqualTo(404);
        assertThat(agentPut(ownToken, upload + "/file", PCAP, new byte[3_000_000]))
                .as("more than 1000 frames of 2048 bytes can write").isEqualTo(413);

        var stopped = b.send("DELETE", captures + "/" + idle, null, 200).body();
        assertThat(JsonPath.<String>read(stopped, "$.state")).isEqualTo("ENDED");
        assertThat(JsonPath.<String>read(stopped, "$.endReason")).isEqualTo("STOPPED");
        assertThat(JsonPath.<Integer>read(stopped, "$.captured")).isZero();
        a.send("DELETE", captures + "/" + idle, null, 204);
        b.send("GET", captures + "/" + idle, null, 404);
        a.send("DELETE", captures + "/" + id, null, 204);
        b.send("GET", captures + "/" + id + "/pcap", null, 404);
        assertThat(a.send("GET", captures, null, 200).body()).isEqualTo("[]");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM agent_capture", Integer.class)).isZero();
        LiveApi.await("the agent to delete every capture file", () -> files(captureDir),
                List::isEmpty);
    }

    /**
     * A token that B verified and keeps: replaced through A, B refuses it (within the notification's delay, a few
     * milliseconds; the deadline is for a loaded machine) and takes the new one; its host deleted through A, B refuses
     * that one too. The replacing replica itself refuses the old token from its answer on (AgentIntegrationTest).
     */
    private void tokensChangedThroughAReachB(LiveApi b) throws Exception {
        var hostId = api.create("/api/v1/hosts", """
                {"name": "esx-token", "managementAddress": "192.0.2.11", "placement": "AGENT",
                 "numaNodes": [{"id": 0, "cpuCores": [0, 1]}]}""", OPERATOR, SECRET);
        var first = issueToken(hostId);
        for (var call : List.of("verified", "kept")) {
            assertThat(agentGetThrough(b, first)).as(call).isEqualTo(200);
        }
        var second = issueToken(hostId);
        LiveApi.await("B to refuse the replaced token", Duration.ofSeconds(2), () -> agentGetThrough(b, first),
                status -> status == 401);
        for (var call : List.of("verified", "kept")) {
            assertThat(agentGetThrough(b, second)).as(call).isEqualTo(200);
        }
        send("DELETE", "/api/v1/hosts/" + hostId, null, 204);
        LiveApi.await("B to refuse the deleted host's token", Duration.ofSeconds(2), () -> agentGetThrough(b, second),
                status -> status == 401);
    }

    private String issueToken(UUID hostId) throws Exception {
        return JsonPath.read(send("POST", "/api/v1/hosts/" + hostId + "/agent-token", null, 201).body(), "$.token");
    }

    private static int agentGetThrough(LiveApi replica, String token) throws Exception {
        return replica.send(HttpRequest.newBuilder(URI.create(replica.base()
                + "/api/v1/agent/hosts/esx-token/desired-state")).header("Authorization", "Bearer " + token)
                .build()).statusCode();
    }

    private static List<String> files(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    private int agentPut(String token, String path, String mediaType, byte[] body) throws Exception {
        return api.client().send(HttpRequest.newBuilder(URI.create(api.base() + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", mediaType)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static HttpResponse<byte[]> pcap(Replica via, String path) throws Exception {
        var response = via.api().client().send(via.api().request(path, via.user(), via.password())
                .header("Accept", PCAP).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).as("GET " + path).isEqualTo(200);
        return response;
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

    /** The operator's request through A; {@code expected}: its status, or null for any. */
    private HttpResponse<String> send(String method, String path, String json, Integer expected) throws Exception {
        return new Replica(api, OPERATOR, SECRET).send(method, path, json, expected);
    }
}
