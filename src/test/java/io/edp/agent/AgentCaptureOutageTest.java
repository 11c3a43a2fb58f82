package io.edp.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.edp.bench.HostCommand;
import io.edp.engine.nic.NicDrivers;
import io.edp.manager.LiveApi;
import io.edp.manager.LiveServerTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A live capture on a host placed AGENT while its agent cannot reach the manager: the link between them (a
 * {@link TcpRelay}) is cut just after the capture started through the API. The agent's engine keeps capturing the
 * generator traffic to the end of the capture's time limit; meanwhile the manager answers a GET of the capture 504
 * (its agent is not connected) and, once edp.capture.unreported-after passed its time limit, ENDED, UNREPORTED,
 * its file a 404 saying it was never uploaded. The link back, the agent uploads the file and the final state, and
 * the API serves them: TIME_LIMIT, the captured count, a pcap tshark reads with exactly that many frames, the last
 * of them stamped well after the cut. The agent then deletes its copy. The manager is this test's own on a real
 * port; the agent runs in-process, with loopback NICs.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=" + AgentCaptureOutageTest.OPERATOR,
        "edp.security.operator.password={noop}" + AgentCaptureOutageTest.SECRET,
        "edp.engines.mbufs=4096",
        "edp.engines.real-drivers=false",
        "edp.agent.connected-within=3s",
        "edp.agent.request-timeout=3s",
        "edp.capture.unreported-after=2s"})
class AgentCaptureOutageTest extends LiveServerTest {

    static final String OPERATOR = "outage-operator";
    static final String SECRET = "operator-secret";
    private static final String HOST = "esx-capture-outage";
    private static final int CAPTURE_SECONDS = 15;

    @TempDir
    Path dir;

    @Test
    void aCaptureKeepsCapturingWhileItsAgentIsCutOffAndItsFileIsServedOnceTheAgentIsBack() throws Exception {
        var hostId = api.writeHostWithAVm(HOST, "AGENT", OPERATOR, SECRET).hostId();
        String token = JsonPath.read(send("POST", "/api/v1/hosts/" + hostId + "/agent-token", null, 201).body(),
                "$.token");
        var captureDir = dir.resolve("capture");
        var log = new ByteArrayOutputStream();
        try (var relay = new TcpRelay(port)) {
            var agent = new Agent(new ManagerClient(List.of(URI.create("http://127.0.0.1:" + relay.port())), HOST,
                    token, "test"), NicDrivers.withLoopback(), captureDir,
                    Duration.ofMillis(500), new PrintStream(log, true, StandardCharsets.UTF_8));
            var running = Thread.ofVirtual().name("agent-" + HOST).start(agent::run);
            try {
                captureThroughAnOutage(hostId, relay, captureDir);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\nagent's log:\n" + log.toString(StandardCharsets.UTF_8),
                        e);
            } finally {
                agent.stop();
                running.interrupt();
                running.join(10_000);
            }
        }
    }

    private void captureThroughAnOutage(UUID hostId, TcpRelay relay, Path captureDir) throws Exception {
        var host = "/api/v1/hosts/" + hostId;
        LiveApi.await("the agent's first statistics", Duration.ofSeconds(90),
                () -> send("GET", host + "/stats/threads", null, null).statusCode(), status -> status == 200);
        api.startTraffic(hostId, 1000, OPERATOR, SECRET);
        var started = send("POST", host + "/captures", """
                {"port": "vmnic0", "direction": "RX", "maxPackets": 100000, "durationSeconds": %d,
                 "snaplen": 128}""".formatted(CAPTURE_SECONDS), 201).body();
        var capture = host + "/captures/" + JsonPath.read(started, "$.id");
        var endsBy = Instant.parse(JsonPath.read(started, "$.startedAt")).plusSeconds(CAPTURE_SECONDS);

        relay.sever();
        var severed = Instant.now();
        LiveApi.await("the agent to show as not connected", () -> send("GET", host, null, 200).body(),
                body -> !JsonPath.<Boolean>read(body, "$.agent.connected"));
        assertThat(Instant.now()).as("still within the capture's time limit").isBefore(endsBy);
        assertThat(JsonPath.<String>read(send("GET", capture, null, 504).body(), "$.detail"))
                .contains("not connected");

        var unreported = LiveApi.await("the capture shown ENDED, UNREPORTED", Duration.ofSeconds(60),
                () -> send("GET", capture, null, null), r -> r.statusCode() == 200
                        && r.body().contains("\"endReason\":\"UNREPORTED\"")).body();
        assertThat(Instant.now()).as("2 s after its time limit, not before").isAfter(endsBy.plusSeconds(2));
        assertThat(JsonPath.<String>read(unreported, "$.state")).isEqualTo("ENDED");
        assertThat(JsonPath.<String>read(unreported, "$.failure")).contains("has not reported its end");
        assertThat(JsonPath.<String>read(send("GET", capture + "/pcap", null, 404).body(), "$.detail"))
                .contains("its agent has not uploaded it");

        relay.restore();
        var reported = LiveApi.await("the agent's upload of the capture's end", () -> send("GET", capture, null,
                200).body(), body -> body.contains("\"endReason\":\"TIME_LIMIT\""));
        int captured = JsonPath.read(reported, "$.captured");
        var pcap = Files.write(dir.resolve("outage.pcap"), pcap(capture + "/pcap"));
        var stamps = HostCommand.run("tshark", "-r", pcap.toString(), "-Tfields", "-e", "frame.time_epoch")
                .lines().map(stamp -> Instant.ofEpochMilli(Math.round(Double.parseDouble(stamp) * 1000))).toList();
        assertThat(stamps).as("the file holds what the state counts").hasSize(captured);
        assertThat(stamps.getLast()).as("captured on while the agent was cut off")
                .isAfter(severed.plusSeconds(CAPTURE_SECONDS / 2)).isBefore(endsBy.plusSeconds(1));
        LiveApi.await("the agent to delete its uploaded file", () -> files(captureDir), List::isEmpty);
    }

    private static List<String> files(Path dir) throws Exception {
        try (var files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    private byte[] pcap(String path) throws Exception {
        var response = api.client().send(api.request(path, OPERATOR, SECRET).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).as("GET " + path).isEqualTo(200);
        return response.body();
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
