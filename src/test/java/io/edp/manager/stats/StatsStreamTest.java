package io.edp.manager.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import io.edp.agent.EngineJson;
import io.edp.manager.LiveApi;
import io.edp.manager.LiveServerTest;
import io.edp.manager.engines.HostEngines;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The statistics stream over a real connection (MockMvc does not stream): snapshots at the interval with counters
 * that only grow under traffic, the end with the host, the bound on open streams, and no permit of the database's
 * bulkhead held (it is set to one here, so a held permit would refuse the request beside the streams). Its own
 * context (a real port) is closed afterwards, so its reconciler does not compete with the shared test context's.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=stream-operator",
        "edp.security.operator.password={noop}operator-secret",
        "edp.security.viewer.user=stream-viewer",
        "edp.security.viewer.password={noop}viewer-secret",
        "edp.stats-stream.max-streams=2",
        "edp.database.concurrent-requests=1",
        "edp.engines.mbufs=4096",
        "edp.engines.real-drivers=false",
        "edp.agent.request-timeout=3s"})
class StatsStreamTest extends LiveServerTest {

    private static final String OPERATOR = "stream-operator";
    private static final String VIEWER = "stream-viewer";
    private static final String SECRET_OPERATOR = "operator-secret";
    private static final String SECRET_VIEWER = "viewer-secret";

    @Autowired
    HostEngines engines;

    /** A server-sent event as it arrived. */
    record Event(String name, String data, long arrivedNanos) {
    }

    /** An open stream: its events as they arrive, on a queue; closing it closes the connection. */
    record EventStream(HttpResponse<Stream<String>> response, BlockingQueue<Event> events, Thread reader)
            implements AutoCloseable {

        Event next() throws InterruptedException {
            var event = events.poll(10, TimeUnit.SECONDS);
            assertThat(event).as("an event within 10 s").isNotNull();
            return event;
        }

        @Override
        public void close() {
            response.body().close();
        }
    }

    @Test
    void snapshotsArriveAtTheIntervalWithGrowingCountersAndTheStreamEndsWithTheHost() throws Exception {
        var hostId = api.hostWithAVm("esx-stream", OPERATOR, SECRET_OPERATOR);
        api.startTraffic(hostId, 20_000, OPERATOR, SECRET_OPERATOR);

        try (var stream = open(hostId, "?interval=200ms")) {
            assertThat(stream.response().statusCode()).isEqualTo(200);
            assertThat(stream.response().headers().firstValue("Content-Type")).get().asString()
                    .startsWith("text/event-stream");
            var snapshots = new ArrayList<Event>();
            for (int i = 0; i < 6; i++) {
                snapshots.add(stream.next());
            }
            assertThat(snapshots).extracting(Event::name).containsOnly("snapshot");

            // scheduled at a fixed rate: a late tick is followed by a quicker one, so measure the mean gap
            var taken = snapshots.stream().map(e -> Instant.parse(JsonPath.read(e.data(), "$.takenAt"))).toList();
            long meanGapMillis = Duration.between(taken.getFirst(), taken.getLast()).toMillis() / 5;
            assertThat(meanGapMillis).as("mean time between snapshots").isBetween(150L, 400L);

            for (String counter : List.of("$.threads.workers[0].rxPackets", "$.flowCache.total.hits",
                    "$.traffic.sent", "$.traffic.received", "$.nicQueues.queues[0].packets")) {
                var values = snapshots.stream().map(e -> ((Number) JsonPath.read(e.data(), counter)).longValue())
                        .toList();
                assertThat(values).as(counter).isSorted();
                assertThat(values.getLast()).as(counter + " moved under traffic").isGreaterThan(values.getFirst());
            }
            assertThat(JsonPath.<List<?>>read(snapshots.getLast().data(), "$.topFlows")).hasSize(10);

            var deleted = api.send(api.request("/api/v1/hosts/" + hostId, OPERATOR, SECRET_OPERATOR).DELETE().build());
            assertThat(deleted.statusCode()).isEqualTo(204);
            Event last = stream.next();
            while (last.name().equals("snapshot")) {
                last = stream.next();
            }
            assertThat(last.name()).isEqualTo("end");
            stream.reader().join(Duration.ofSeconds(10));
            assertThat(stream.reader().isAlive()).as("the response completed after the end event").isFalse();
        }
    }

    @Test
    void streamsAreBoundedHoldNoDatabasePermitAndCheckTheirInterval() throws Exception {
        var hostId = api.hostWithAVm("esx-streams", OPERATOR, SECRET_OPERATOR);

        for (var wrong : List.of("100ms", "61s", "often")) {
            var refused = api.send(api.request("/api/v1/hosts/" + hostId + "/stats/stream?interval=" + wrong,
                    VIEWER, SECRET_VIEWER).build());
            assertThat(refused.statusCode()).as(wrong).isEqualTo(400);
            assertThat(JsonPath.<String>read(refused.body(), "$.errors[0].field")).isEqualTo("interval");
        }

        try (var first = open(hostId, ""); var second = open(hostId, "")) {
            first.next();
            second.next();
            // the bulkhead has one permit: the streams hold none, so a request that needs the database passes
            assertThat(api.send(api.request("/api/v1/hosts", VIEWER, SECRET_VIEWER).build()).statusCode())
                    .isEqualTo(200);
            var third = api.send(api.request("/api/v1/hosts/" + hostId + "/stats/stream", VIEWER, SECRET_VIEWER)
                    .build());
            assertThat(third.statusCode()).isEqualTo(503);
            assertThat(third.headers().firstValue("Content-Type")).get().asString()
                    .startsWith("application/problem+json");

            first.close();
            // the server notices a closed connection at its next send, within an interval
            LiveApi.await("a place to free up", () -> {
                try (var again = open(hostId, "")) {
                    return again.response().statusCode();
                }
            }, status -> status == 200);
        }
    }

    /**
     * A stream whose engine does not answer (an agent's host, its agent gone: every top-flows read waits the request
     * timeout, 3 s here) delays no other stream: the other keeps its interval.
     */
    @Test
    void aStreamWhoseEngineDoesNotAnswerDelaysNoOtherStream() throws Exception {
        var prompt = api.hostWithAVm("esx-prompt", OPERATOR, SECRET_OPERATOR);
        var silent = api.writeHostWithAVm("esx-silent", "AGENT", OPERATOR, SECRET_OPERATOR).hostId();
        var token = api.send(api.request("/api/v1/hosts/" + silent + "/agent-token", OPERATOR, SECRET_OPERATOR)
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(token.statusCode()).as(token.body()).isEqualTo(201);
        // the snapshot an agent would have reported, so that its host has an engine to stream; no agent runs
        jdbc.update("UPDATE host_agent SET stats = jsonb_build_object('generation', 1, 'stats', CAST(? AS jsonb)), "
                        + "stats_taken_at = now(), last_seen_at = now() WHERE host_id = ?",
                EngineJson.MAPPER.writeValueAsString(engines.require(prompt).stats()), silent);

        // its response starts with its first snapshot, which never comes: open it without waiting
        var stalled = api.client().sendAsync(api.request("/api/v1/hosts/" + silent + "/stats/stream?interval=200ms",
                VIEWER, SECRET_VIEWER).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofLines());
        LiveApi.await("the silent stream's first tick to wait on the agent", () -> jdbc.queryForObject(
                "SELECT count(*) FROM engine_request WHERE host_id = ?", Integer.class, silent), n -> n > 0);
        long opened = System.nanoTime(); // the silent tick waits now: the first snapshot must not wait for it
        try (var other = open(prompt, "?interval=200ms")) {
            var arrivals = new ArrayList<>(List.of(opened));
            long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
            while (System.nanoTime() < until) {
                var event = other.next();
                assertThat(event.name()).isEqualTo("snapshot");
                arrivals.add(event.arrivedNanos());
            }
            long longestGapMillis = 0;
            for (int i = 1; i < arrivals.size(); i++) {
                longestGapMillis = Math.max(longestGapMillis, (arrivals.get(i) - arrivals.get(i - 1)) / 1_000_000);
            }
            assertThat(longestGapMillis).as("longest wait for the other stream's (first or next) snapshot")
                    .isLessThan(1_000);
            assertThat(arrivals).as("snapshots in 4 s at 200 ms").hasSizeGreaterThanOrEqualTo(13);
        }
        assertThat(stalled).as("the silent engine's stream sent nothing").isNotDone();

        // its host deleted, the stream ends (and gives its place back) at its next tick
        assertThat(api.send(api.request("/api/v1/hosts/" + silent, OPERATOR, SECRET_OPERATOR).DELETE().build())
                .statusCode()).isEqualTo(204);
        try (var lines = stalled.get(15, TimeUnit.SECONDS).body()) {
            assertThat(lines.filter(line -> line.startsWith("event:")).map(line -> line.substring(6).strip()))
                    .containsExactly("end");
        }
    }

    /** Opens the host's stream as the viewer; its events are read by a thread of their own. */
    private EventStream open(UUID hostId, String query) throws Exception {
        var response = api.client().send(api.request("/api/v1/hosts/" + hostId + "/stats/stream" + query,
                VIEWER, SECRET_VIEWER).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofLines());
        var events = new LinkedBlockingQueue<Event>();
        var reader = Thread.ofVirtual().start(() -> {
            String name = "message";
            var data = new StringBuilder();
            try {
                for (var lines = response.body().iterator(); lines.hasNext(); ) {
                    String line = lines.next();
                    if (line.isEmpty()) {
                        if (!data.isEmpty()) {
                            events.add(new Event(name, data.toString(), System.nanoTime()));
                        }
                        name = "message";
                        data.setLength(0);
                    } else if (line.startsWith("event:")) {
                        name = line.substring(6).strip();
                    } else if (line.startsWith("data:")) {
                        data.append(line.substring(5).strip());
                    }
                }
            } catch (RuntimeException closed) {
                // the test closed the stream
            }
        });
        return new EventStream(response, events, reader);
    }
}
