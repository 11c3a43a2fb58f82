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
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import io.edp.bench.HostCommand;
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

/**
 * Live captures of a host placed AGENT: a real {@code edp agent} process runs them and writes their files on its
 * side, in its --capture-dir, and uploads them; the agent long-polls a second manager process (B) while the operator
 * starts the captures through this test's manager (A), and either replica lists, shows, stops and serves them, with
 * the REST shapes and statuses of an embedded host's. Agent tokens upload only for their own host's captures.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=" + AgentCaptureTest.OPERATOR,
        "edp.security.operator.password={noop}" + AgentCaptureTest.SECRET,
        "edp.engines.mbufs=4096",
        "edp.engines.real-drivers=false",
        "edp.agent.request-timeout=10s"})
class AgentCaptureTest {

    static final String OPERATOR = "capture-operator";
    static final String SECRET = "operator-secret";
    private static final String VM_MAC = "00:50:56:aa:bb:01";
    private static final String PCAP = "application/vnd.tcpdump.pcap";

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
    void anAgentHostsCaptureRunsInTheAgentAndAnyReplicaServesItsPcap() throws Exception {
        var hostId = api.writeHostWithAVm("esx-capture", "AGENT", OPERATOR, SECRET).hostId();
        var other = api.writeHostWithAVm("esx-other", "AGENT", OPERATOR, SECRET).hostId();
        var token = token(hostId, "token");
        var otherToken = Files.readString(token(other, "other-token"));
        var captureDir = dir.resolve("agent-captures");
        var env = TestDatabase.environment();
        var database = new ManagerProcess.Database(env.get("SPRING_DATASOURCE_URL"),
                env.get("SPRING_DATASOURCE_USERNAME"), env.getOrDefault("SPRING_DATASOURCE_PASSWORD", ""));

        try (var replicaB = ManagerProcess.start("replica-b", database, dir, "--edp.engines.embedded=false")) {
            replicaB.awaitReady(Duration.ofSeconds(90));
            try (var agent = EdpProcess.start("agent", dir.resolve("agent.log"), List.of("agent", "--manager",
                    replicaB.api().base(), "--host", "esx-capture", "--token-file", token.toString(),
                    "--capture-dir", captureDir.toString(), "--stats-interval", "300ms"))) {
                var a = new Replica(api, OPERATOR, SECRET);
                var b = new Replica(replicaB.api(), ManagerProcess.OPERATOR, ManagerProcess.PASSWORD);
                var captures = "/api/v1/hosts/" + hostId + "/captures";
                LiveApi.await("the agent's engine", Duration.ofSeconds(90), () -> a.send("GET", "/api/v1/hosts/"
                        + hostId + "/stats/flow-cache", null, null).body(), s -> s.contains("\"mode\""));
                try {
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

                    var upload = "/api/v1/agent/hosts/esx-capture/captures/" + idle;
                    var ownToken = Files.readString(token);
                    assertThat(agentPut(otherToken, upload + "/file", PCAP, new byte[24]))
                            .as("another host's token on this host's path").isEqualTo(403);
                    var otherPath = "/api/v1/agent/hosts/esx-other/captures/" + idle;
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
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\nagent's log:\n" + agent.logTail(), e);
                }
            }
        }
    }

    private Path token(UUID hostId, String name) throws Exception {
        return Files.writeString(dir.resolve(name), JsonPath.<String>read(new Replica(api, OPERATOR, SECRET).send(
                "POST", "/api/v1/hosts/" + hostId + "/agent-token", null, 201).body(), "$.token"));
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
                .header("Accept", PCAP).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).as("GET " + path).isEqualTo(200);
        return response;
    }
}
