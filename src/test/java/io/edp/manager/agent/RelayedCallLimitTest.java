package io.edp.manager.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import io.edp.manager.LiveApi;
import io.edp.manager.LiveServerTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Calls to an engine that runs elsewhere wait on request threads for its answer: with no agent answering, at most
 * {@code edp.agent.concurrent-requests} of them wait at once, one more is answered 503 at once, and the probes and
 * an embedded host's statistics still answer meanwhile.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=" + RelayedCallLimitTest.OPERATOR,
        "edp.security.operator.password={noop}" + RelayedCallLimitTest.SECRET,
        "edp.engines.mbufs=4096",
        "edp.engines.real-drivers=false",
        "edp.agent.request-timeout=4s",
        "edp.agent.concurrent-requests=2"})
class RelayedCallLimitTest extends LiveServerTest {

    static final String OPERATOR = "relay-operator";
    static final String SECRET = "operator-secret";

    @Test
    void relayedCallsBeyondTheLimitAreRefusedAtOnceWhileOtherRequestsAnswer() throws Exception {
        var embedded = api.hostWithAVm("esx-embedded", OPERATOR, SECRET);
        var agentHost = api.writeHostWithAVm("esx-agent", "AGENT", OPERATOR, SECRET).hostId();
        assertThat(api.send(post("/api/v1/hosts/" + agentHost + "/agent-token")).statusCode()).isEqualTo(201);
        // its agent reported its engine an hour ago and has answered nothing since
        jdbc.update("""
                UPDATE host_agent SET stats = jsonb_build_object('generation', 1, 'stats', '{}'::jsonb),
                       stats_taken_at = now() - interval '1 hour', last_seen_at = now() - interval '1 hour'
                 WHERE host_id = ?""", agentHost);
        var flush = "/api/v1/hosts/" + agentHost + "/stats/flow-cache/flush";
        var waiting = List.of(api.client().sendAsync(post(flush), HttpResponse.BodyHandlers.ofString()),
                api.client().sendAsync(post(flush), HttpResponse.BodyHandlers.ofString()));
        LiveApi.await("two calls waiting for the agent", () -> queued(agentHost), n -> n == 2);

        long started = System.nanoTime();
        var refused = api.send(post(flush));
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(JsonPath.<String>read(refused.body(), "$.detail")).contains("2 answers")
                .contains("edp.agent.concurrent-requests");
        assertThat(api.send(api.request("/actuator/health/liveness", OPERATOR, SECRET).build()).statusCode())
                .isEqualTo(200);
        assertThat(api.send(api.request("/api/v1/hosts/" + embedded + "/stats/flow-cache", OPERATOR, SECRET)
                .build()).statusCode()).isEqualTo(200);
        assertThat(queued(agentHost)).as("the two calls still wait").isEqualTo(2);

        for (var call : waiting) {
            assertThat(call.join().statusCode()).isEqualTo(504);
        }
        // their permits are back: the next call waits for the agent again rather than being refused
        var next = api.client().sendAsync(post(flush), HttpResponse.BodyHandlers.ofString());
        LiveApi.await("the next call waiting for the agent", () -> queued(agentHost), n -> n == 1);
        assertThat(next.join().statusCode()).isEqualTo(504);
    }

    private HttpRequest post(String path) {
        return api.request(path, OPERATOR, SECRET).POST(HttpRequest.BodyPublishers.noBody()).build();
    }

    private int queued(UUID hostId) {
        return jdbc.queryForObject("SELECT count(*) FROM engine_request WHERE host_id = ?", Integer.class, hostId);
    }
}
