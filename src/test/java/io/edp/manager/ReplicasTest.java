package io.edp.manager;

import static io.edp.manager.ManagerProcess.OPERATOR;
import static io.edp.manager.ManagerProcess.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two manager replicas, each a JVM of its own, on one PostgreSQL of this test's own: A runs the embedded engines, B
 * ({@code edp.engines.embedded=false}) serves the API only (engine reads relayed to A). What is written through B is
 * realized by A's engines; a global firewall rule written through B while A is frozen ({@code kill -STOP}) is realized
 * on every host once A resumes, and the long-polls held on B meanwhile are answered then (by a notification from
 * PostgreSQL: B re-reads nothing on its own); a {@code kill -9} of B in the middle of writes loses none that B
 * acknowledged: A realizes them all.
 */
class ReplicasTest {

    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration REALIZED = Duration.ofSeconds(30);
    private static final int HOSTS = 3;

    @TempDir
    Path dir;

    @Test
    void everyWriteThroughTheApiReplicaIsRealizedByTheEngineReplicaAndSurvivesItsKill() throws Exception {
        try (var postgres = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("postgres")).start()) {
            var database = new ManagerProcess.Database(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "");
            try (var a = ManagerProcess.start("replica-a", database, dir);
                 var b = ManagerProcess.start("replica-b", database, dir, "--edp.engines.embedded=false")) {
                a.awaitReady(STARTUP);
                b.awaitReady(STARTUP);

                List<UUID> hosts = new ArrayList<>();
                for (int i = 0; i < HOSTS; i++) {
                    var host = b.api().writeHostWithAVm("esx-" + i, OPERATOR, PASSWORD);
                    awaitRealizedThrough(b, host.hostId(), host.generation());
                    assertThat(engineGeneration(a, host.hostId())).as("A's engine runs it")
                            .isGreaterThanOrEqualTo(host.generation());
                    assertThat(status(b, "/api/v1/hosts/" + host.hostId() + "/stats/flow-cache"))
                            .as("B runs no engine but relays the read to A's").isEqualTo(200);
                    hosts.add(host.hostId());
                }

                // a global rule through B while A is frozen: B's long-polls are held until A, resumed, realizes it
                a.pause();
                var rule = post(b, "/api/v1/firewall/rules", rule("drop-one"));
                assertThat(rule.statusCode()).as(rule.body()).isEqualTo(201);
                List<Map<String, Object>> bumped = JsonPath.read(rule.body(), "$.bumpedHosts");
                assertThat(bumped).extracting(h -> UUID.fromString((String) h.get("hostId")))
                        .as("a global rule bumps every host").containsExactlyInAnyOrderElementsOf(hosts);
                List<CompletableFuture<HttpResponse<String>>> waits = new ArrayList<>();
                for (var host : bumped) {
                    waits.add(b.api().client().sendAsync(realization(b, UUID.fromString((String) host.get("hostId")),
                            generation(host), "60s"), HttpResponse.BodyHandlers.ofString()));
                }
                for (var host : bumped) {
                    var now = get(b, "/api/v1/hosts/" + host.get("hostId") + "/realization").body();
                    assertThat(((Number) JsonPath.read(now, "$.realizedGeneration")).longValue())
                            .as("not realized while A is frozen: %s", now).isLessThan(generation(host));
                }
                assertThat(waits).as("no long-poll answered while A is frozen").noneMatch(CompletableFuture::isDone);
                a.resume();
                for (int i = 0; i < bumped.size(); i++) {
                    var answered = waits.get(i).get(REALIZED.toSeconds(), TimeUnit.SECONDS);
                    assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
                    assertRealized(answered.body(), generation(bumped.get(i)));
                    assertThat(engineGeneration(a, UUID.fromString((String) bumped.get(i).get("hostId"))))
                            .isGreaterThanOrEqualTo(generation(bumped.get(i)));
                }

                var acknowledged = writeRulesUntilKilled(b);
                var listed = get(a, "/api/v1/firewall/rules?size=100");
                assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
                for (String name : acknowledged) {
                    assertThat(listed.body()).as("a rule B acknowledged before its kill").contains("\"" + name + "\"");
                }
                for (var hostId : hosts) {
                    long desired = ((Number) JsonPath.read(get(a, "/api/v1/hosts/" + hostId + "/realization")
                            .body(), "$.desiredGeneration")).longValue();
                    awaitRealizedThrough(a, hostId, desired);
                    assertThat(engineGeneration(a, hostId)).as("A's engine runs everything committed")
                            .isEqualTo(desired);
                }
            }
        }
    }

    private static long generation(Map<String, Object> bumpedHost) {
        return ((Number) bumpedHost.get("generation")).longValue();
    }

    /**
     * Creates firewall rules through {@code b} one after the other, kills it with SIGKILL once it has acknowledged
     * five, and returns the names of all it acknowledged.
     */
    private static List<String> writeRulesUntilKilled(ManagerProcess b) throws Exception {
        Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
        try (var writer = Executors.newSingleThreadExecutor()) {
            var writes = writer.submit(() -> {
                for (int i = 0; ; i++) {
                    try {
                        var response = post(b, "/api/v1/firewall/rules", rule("burst-" + i));
                        if (response.statusCode() == 201) {
                            acknowledged.add("burst-" + i);
                        }
                    } catch (IOException e) {
                        return i; // B is gone
                    }
                }
            });
            LiveApi.await("B to acknowledge five rules", () -> acknowledged.size(), n -> n >= 5);
            b.kill();
            writes.get(REALIZED.toSeconds(), TimeUnit.SECONDS);
        }
        return List.copyOf(acknowledged);
    }

    private static void assertRealized(String status, long generation) {
        assertThat(((Number) JsonPath.read(status, "$.realizedGeneration")).longValue()).as(status)
                .isGreaterThanOrEqualTo(generation);
        assertThat((String) JsonPath.read(status, "$.state")).as(status).isEqualTo("SUCCESS");
    }

    /** A long-poll on {@code replica} until {@code generation} is realized. */
    private static void awaitRealizedThrough(ManagerProcess replica, UUID hostId, long generation) throws Exception {
        var response = replica.api().send(realization(replica, hostId, generation, REALIZED.toSeconds() + "s"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertRealized(response.body(), generation);
    }

    private static HttpRequest realization(ManagerProcess replica, UUID hostId, long generation, String wait) {
        return replica.api().request("/api/v1/hosts/" + hostId + "/realization?generation=" + generation
                + "&wait=" + wait, OPERATOR, PASSWORD).timeout(Duration.ofSeconds(90)).build();
    }

    /** The desired generation the host's engine on {@code replica} runs. */
    private static long engineGeneration(ManagerProcess replica, UUID hostId) throws Exception {
        var response = get(replica, "/api/v1/hosts/" + hostId + "/stats/flow-cache");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return ((Number) JsonPath.read(response.body(), "$.generation")).longValue();
    }

    private static String rule(String name) {
        return """
                {"name": "%s", "priority": 10, "source": "10.0.0.7/32", "destination": "any",
                 "protocol": "ANY", "action": "DROP"}""".formatted(name);
    }

    private static int status(ManagerProcess replica, String path) throws Exception {
        return get(replica, path).statusCode();
    }

    private static HttpResponse<String> get(ManagerProcess replica, String path) throws Exception {
        return replica.api().send(request(replica, path).build());
    }

    private static HttpResponse<String> post(ManagerProcess replica, String path, String json)
            throws IOException, InterruptedException {
        return replica.api().send(request(replica, path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** With a timeout: a request stuck behind a frozen replica's locks fails the test instead of hanging it. */
    private static HttpRequest.Builder request(ManagerProcess replica, String path) {
        return replica.api().request(path, OPERATOR, PASSWORD).timeout(REALIZED);
    }
}
