package io.edp.manager.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.EdpProcess;
import io.edp.manager.LiveApi;
import io.edp.manager.LiveServerTest;
import io.edp.manager.ManagerProcess;
import io.edp.manager.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Agents long-poll their desired state while the operator deletes their hosts: each poll is answered 404 (the host
 * is gone, as for any other path of a host that does not exist), never 500, and the agent's next call is refused 401
 * (its token went with the host); a real agent logs both and backs off.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=" + DeletedHostLongPollTest.OPERATOR,
        "edp.security.operator.password={noop}" + DeletedHostLongPollTest.SECRET,
        "edp.engines.mbufs=4096",
        "edp.engines.real-drivers=false"})
class DeletedHostLongPollTest extends LiveServerTest {

    static final String OPERATOR = "deleting-operator";
    static final String SECRET = "operator-secret";

    @TempDir
    Path dir;

    @Test
    void longPollsOfDeletedHostsAreAnswered404() throws Exception {
        int count = 12;
        List<String> tokens = new ArrayList<>();
        List<UUID> hosts = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            var host = api.writeHostWithAVm("esx-gone-" + i, "AGENT", OPERATOR, SECRET);
            var token = JsonPath.<String>read(api.send(api.request("/api/v1/hosts/" + host.hostId()
                    + "/agent-token", OPERATOR, SECRET).POST(HttpRequest.BodyPublishers.noBody()).build()).body(),
                    "$.token");
            hosts.add(host.hostId());
            tokens.add(token);
            polls.add(api.client().sendAsync(agent(i, token, "?after=" + host.generation() + "&wait=30s"),
                    HttpResponse.BodyHandlers.ofString()));
        }
        LiveApi.await("every agent's poll", () -> hosts.stream().allMatch(this::seen), all -> all);

        for (var hostId : hosts) {
            var deleted = api.send(api.request("/api/v1/hosts/" + hostId, OPERATOR, SECRET).DELETE().build());
            assertThat(deleted.statusCode()).isEqualTo(204);
        }
        for (int i = 0; i < count; i++) {
            var answer = polls.get(i).join();
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(404);
            assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(JsonPath.<String>read(answer.body(), "$.detail")).contains(hosts.get(i).toString());
            // what the agent meets next: its token went with its host
            assertThat(api.send(agent(i, tokens.get(i), "")).statusCode()).isEqualTo(401);
        }
    }

    /**
     * A real agent whose host is deleted through another replica than the one it polls: its poll is refused (404
     * while waiting, 401 when sent after), then every call 401 while it backs off; never 500.
     */
    @Test
    void anAgentWhoseHostIsDeletedBacksOff() throws Exception {
        var host = api.writeHostWithAVm("esx-gone-0", "AGENT", OPERATOR, SECRET);
        var token = dir.resolve("token");
        Files.writeString(token, JsonPath.<String>read(api.send(api.request("/api/v1/hosts/" + host.hostId()
                + "/agent-token", OPERATOR, SECRET).POST(HttpRequest.BodyPublishers.noBody()).build()).body(),
                "$.token"));
        var env = TestDatabase.environment();
        var database = new ManagerProcess.Database(env.get("SPRING_DATASOURCE_URL"),
                env.get("SPRING_DATASOURCE_USERNAME"), env.getOrDefault("SPRING_DATASOURCE_PASSWORD", ""));
        try (var replicaB = ManagerProcess.start("replica-b", database, dir, "--edp.engines.embedded=false")) {
            replicaB.awaitReady(Duration.ofSeconds(90));
            try (var agent = EdpProcess.start("agent", dir.resolve("agent.log"), List.of("agent", "--manager",
                    replicaB.api().base(), "--host", "esx-gone-0", "--token-file", token.toString(),
                    "--pcap-dir", dir.resolve("pcap").toString(),
                    "--capture-dir", dir.resolve("captures").toString()))) {
                LiveApi.await("the agent to run the host's generation", Duration.ofSeconds(90), agent::logTail,
                        log -> log.contains("generation " + host.generation() + ":"));
                var deleted = api.send(api.request("/api/v1/hosts/" + host.hostId(), OPERATOR, SECRET).DELETE()
                        .build());
                assertThat(deleted.statusCode()).isEqualTo(204);
                // its waiting poll 404, or, deleted between two polls, the next one 401; then 401 on every call
                var log = LiveApi.await("the agent's poll refused, then a 401", agent::logTail,
                        tail -> tail.lines().anyMatch(l -> l.contains("manager answered 4")
                                && l.contains("/desired-state")) && tail.contains("manager answered 401"));
                assertThat(log).as(log).doesNotContain("manager answered 5");
                assertThat(agent.isAlive()).as("the agent backs off, it does not exit").isTrue();
            }
        }
    }

    private HttpRequest agent(int host, String token, String query) {
        return HttpRequest.newBuilder(URI.create(api.base() + "/api/v1/agent/hosts/esx-gone-" + host
                        + "/desired-state" + query))
                .header("Authorization", "Bearer " + token).build();
    }

    private boolean seen(UUID hostId) {
        return Boolean.TRUE.equals(jdbc.queryForObject(
                "SELECT last_seen_at IS NOT NULL FROM host_agent WHERE host_id = ?", Boolean.class, hostId));
    }
}
