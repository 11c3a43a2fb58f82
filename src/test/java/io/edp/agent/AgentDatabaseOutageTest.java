package io.edp.agent;

import static io.edp.manager.ManagerProcess.OPERATOR;
import static io.edp.manager.ManagerProcess.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

import com.jayway.jsonpath.JsonPath;
import io.edp.engine.Engine;
import io.edp.engine.EngineSlot;
import io.edp.manager.LiveApi;
import io.edp.manager.ManagerProcess;
import io.edp.manager.database.DataDirectoryProperties;
import io.edp.manager.engines.EngineProperties;
import io.edp.manager.host.pnic.NicConfinement;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL stopped for 30 s under a manager (a JVM of its own) and three agents whose engines forward generator
 * traffic (started through the manager's API, so as an engine request) from their loopback uplinks to a VM: the
 * engines keep forwarding throughout (their counters, read from the agents' engines, keep growing), the manager
 * stays alive with readiness DOWN and liveness UP and answers the agents 503 (their token cannot be looked up), the
 * agents retry with their capped, jittered backoff (a handful of attempts, not a storm), and once PostgreSQL is back
 * a change committed then reaches every agent's engine. The database is this test's own (stopped and started again
 * on its port), never the shared one.
 */
class AgentDatabaseOutageTest {

    private static final int AGENTS = 3;
    private static final Duration OUTAGE = Duration.ofSeconds(30);
    private static final Duration STARTUP = Duration.ofSeconds(90);
    /** Readiness probes the pool with a 3 s connection timeout; the rest is room for a loaded machine. */
    private static final Duration READINESS_DOWN = Duration.ofSeconds(20);
    /**
     * After readiness is UP again: an agent's backoff is at most 15 s (its cap), then one long poll and one report.
     */
    private static final Duration CONVERGE = Duration.ofSeconds(45);
    /**
     * The most calls that fail in an agent's main loop over the outage: its backoff (250 ms doubling to 15 s, each
     * drawn between half and all of it) allows about ten in 30 s; without backoff there would be hundreds.
     */
    private static final int MAX_FAILED_CALLS = 14;
    private static final String VM_MAC = "00:50:56:aa:bb:01";

    @TempDir
    Path dir;

    private LiveApi api;

    /**
     * One simulated host: the generation its writes left desired, its agent, the slot its engine runs in, and what
     * the agent logged.
     */
    private record Simulated(String host, UUID hostId, long generation, Agent agent, EngineSlot slot, Log log,
                             Thread thread) {

        Engine engine() {
            synchronized (slot) {
                return slot.engine().orElseThrow(() -> new AssertionError(host + " runs no engine"));
            }
        }

        long forwarded() {
            synchronized (slot) {
                return slot.engine().map(engine -> engine.stats().txPackets()).orElse(0L);
            }
        }
    }

    @Test
    void agentsKeepForwardingWhilePostgresqlIsDownAndConvergeWhenItIsBack() throws Exception {
        var postgres = postgres(0);
        int databasePort = postgres.getPort();
        var database = new ManagerProcess.Database(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "");
        List<Simulated> fleet = new ArrayList<>();
        try (var manager = ManagerProcess.start("outage-manager", database, dir)) {
            manager.awaitReady(STARTUP);
            api = manager.api();
            var drivers = new NicConfinement(new EngineProperties(true, 1024, 256, false, null, dir.resolve("pcap"),
                    List.of()), new DataDirectoryProperties(null)).drivers();
            for (int i = 0; i < AGENTS; i++) {
                var host = "esx-outage-" + i;
                var written = api.writeHostWithAVm(host, "AGENT", OPERATOR, PASSWORD);
                var hostId = written.hostId();
                var client = new ManagerClient(List.of(URI.create(api.base())), host, token(hostId), "test");
                var slot = new EngineSlot(drivers, new EngineSlot.Listener() { });
                var log = new Log();
                var agent = new Agent(client, slot, dir.resolve("capture"), Duration.ofSeconds(1), log.stream());
                fleet.add(new Simulated(host, hostId, written.generation(), agent, slot, log,
                        Thread.ofVirtual().name("agent-" + host).start(agent::run)));
            }
            for (var host : fleet) {
                awaitRealized(host, host.generation());
                startTraffic(host);
            }

            postgres.close();
            long stopped = System.nanoTime();
            fleet.forEach(host -> host.log().mark());
            LiveApi.await("readiness DOWN", READINESS_DOWN, () -> status("/actuator/health/readiness"),
                    status -> status == 503);
            Map<Simulated, Long> before = forwarded(fleet);
            while (System.nanoTime() - stopped < OUTAGE.toNanos()) {
                var last = before;
                before = LiveApi.await("every engine to forward more", () -> forwarded(fleet),
                        now -> fleet.stream().allMatch(host -> now.get(host) > last.get(host)));
                assertThat(status("/actuator/health/liveness")).as("liveness while PostgreSQL is down").isEqualTo(200);
                assertThat(status("/actuator/health/readiness")).as("readiness while PostgreSQL is down")
                        .isEqualTo(503);
                LockSupport.parkNanos(Duration.ofSeconds(2).toNanos()); // a sample every few seconds of the outage
            }
            assertThat(manager.process().isAlive()).isTrue();

            postgres = postgres(databasePort);
            LiveApi.await("readiness UP", STARTUP, () -> status("/actuator/health/readiness"),
                    status -> status == 200);
            for (var host : fleet) {
                var failed = host.log().sinceMark().stream().filter(line -> line.contains("manager answered")
                        || line.contains("manager unreachable")).toList();
                assertThat(failed).as("%s's failed calls over the outage, with backoff", host.host())
                        .hasSizeBetween(1, MAX_FAILED_CALLS)
                        .allMatch(line -> line.contains("manager answered 503"), "answered 503, to retry later");
            }

            var rule = post("/api/v1/firewall/rules", """
                    {"name": "after-the-outage", "priority": 10, "source": "10.0.0.7/32", "destination": "any",
                     "protocol": "ANY", "action": "DROP"}""");
            List<Map<String, Object>> bumped = JsonPath.read(rule, "$.bumpedHosts");
            assertThat(bumped).hasSize(AGENTS);
            for (var host : fleet) {
                long generation = bumped.stream().filter(b -> b.get("hostId").equals(host.hostId().toString()))
                        .mapToLong(b -> ((Number) b.get("generation")).longValue()).findFirst().orElseThrow();
                awaitRealized(host, generation);
                assertThat(host.engine().config().firewallRules()).as("%s's engine runs the change", host.host())
                        .hasSize(1);
                long forwarding = host.forwarded();
                LiveApi.await(host.host() + " to keep forwarding", host::forwarded, now -> now > forwarding);
            }
        } finally {
            fleet.forEach(host -> host.agent().stop());
            fleet.forEach(host -> host.thread().interrupt());
            for (var host : fleet) {
                host.thread().join(10_000);
            }
            postgres.close();
        }
    }

    /** This test's own PostgreSQL: a new cluster at first, the same one on the same port when started again. */
    private EmbeddedPostgres postgres(int port) throws Exception {
        return EmbeddedPostgres.builder().setDataDirectory(dir.resolve("postgres")).setCleanDataDirectory(false)
                .setPort(port).start();
    }

    private String token(UUID hostId) throws Exception {
        return JsonPath.read(post("/api/v1/hosts/" + hostId + "/agent-token", null), "$.token");
    }

    /**
     * Generator traffic from the host's uplink to the VM, without end: started through the manager's API, which
     * hands it to the agent as an engine request.
     */
    private void startTraffic(Simulated host) throws Exception {
        // the manager serves an agent's engine once the agent has reported a statistics snapshot
        LiveApi.await(host.host() + "'s first statistics", () -> status("/api/v1/hosts/" + host.hostId()
                + "/stats/threads"), status -> status == 200);
        post("/api/v1/hosts/" + host.hostId() + "/traffic", """
                {"nic": "vmnic0", "flows": 16, "packetsPerSecond": 5000, "destinationMac": "%s"}""".formatted(VM_MAC));
        LiveApi.await(host.host() + "'s first forwarded packets", host::forwarded, forwarded -> forwarded > 0);
    }

    private static Map<Simulated, Long> forwarded(List<Simulated> fleet) {
        Map<Simulated, Long> counters = new HashMap<>();
        fleet.forEach(host -> counters.put(host, host.forwarded()));
        return counters;
    }

    private void awaitRealized(Simulated host, long generation) throws Exception {
        try {
            LiveApi.await(host.host() + " to realize generation " + generation, CONVERGE,
                    () -> get("/api/v1/hosts/" + host.hostId() + "/realization").body(),
                    body -> ((Number) JsonPath.read(body, "$.realizedGeneration")).longValue() >= generation
                            && JsonPath.read(body, "$.state").equals("SUCCESS"));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + host.host() + "'s log:\n"
                    + String.join("\n", host.log().lines()), e);
        }
    }

    private int status(String path) throws Exception {
        return get(path).statusCode();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return api.send(api.request(path, OPERATOR, PASSWORD).timeout(Duration.ofSeconds(10)).build());
    }

    private String post(String path, String json) throws Exception {
        var response = api.send(api.request(path, OPERATOR, PASSWORD).header("Content-Type", "application/json")
                .POST(json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .timeout(Duration.ofSeconds(30)).build());
        assertThat(response.statusCode()).as("POST %s: %s", path, response.body()).isEqualTo(201);
        return response.body();
    }

    /** An agent's log lines, kept in memory, and which were logged since {@link #mark()}. */
    private static final class Log {

        private final List<String> lines = new ArrayList<>();
        private int mark;

        PrintStream stream() {
            var buffer = new ByteArrayOutputStream();
            return new PrintStream(new OutputStream() {
                @Override
                public void write(int b) {
                    synchronized (Log.this) {
                        if (b == '\n') {
                            lines.add(buffer.toString(StandardCharsets.UTF_8));
                            buffer.reset();
                        } else {
                            buffer.write(b);
                        }
                    }
                }
            }, true, StandardCharsets.UTF_8);
        }

        synchronized void mark() {
            mark = lines.size();
        }

        synchronized List<String> sinceMark() {
            return List.copyOf(lines.subList(mark, lines.size()));
        }

        synchronized List<String> lines() {
            return List.copyOf(lines);
        }
    }
}
