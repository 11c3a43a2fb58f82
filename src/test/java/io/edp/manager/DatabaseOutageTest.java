package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import com.jayway.jsonpath.JsonPath;
import io.edp.EdpApplication;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * PostgreSQL stops while 50 clients keep calling database-backed endpoints over real HTTP: those requests are
 * answered 503 problem details with Retry-After within a few seconds each, readiness turns DOWN within seconds,
 * liveness and the data path's statistics keep answering promptly and the host's engine keeps forwarding; when
 * PostgreSQL is back, readiness turns UP and writes succeed. The manager runs on a PostgreSQL of this test's own,
 * with fewer HTTP threads (30) than clients, so that requests stuck on the database could take every thread.
 */
@ExtendWith(OutputCaptureExtension.class)
class DatabaseOutageTest {

    private static final int CLIENTS = 50;
    private static final String AUTH = "Basic " + Base64.getEncoder()
            .encodeToString("outage:outage-secret".getBytes(StandardCharsets.UTF_8));
    private static final String VM_MAC = "00:50:56:aa:bb:01";
    /**
     * Bounds of seconds: a readiness probe or a request waits at most the pool's connection timeout (3 s); the rest
     * is room for a loaded machine (readiness took 12 s with a load average of 30 on 2 cores). Without the short
     * timeout each takes 30 s or more, and with every HTTP thread taken, a probe does not answer at all.
     */
    private static final Duration FAST_FAILURE = Duration.ofSeconds(10);
    private static final Duration READINESS_DOWN = Duration.ofSeconds(20);
    /** What liveness and statistics may take while the database is away. */
    private static final Duration PROMPT = Duration.ofSeconds(3);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private String base;

    @TempDir
    Path data;

    @Test
    void databaseRequestsFailFastWhileProbesStatisticsAndForwardingCarryOn(CapturedOutput log) throws Exception {
        var postgres = postgres(0);
        int databasePort = postgres.getPort();
        try (var manager = new SpringApplicationBuilder(EdpApplication.class).run(
                "--spring.datasource.url=" + postgres.getJdbcUrl("postgres", "postgres"),
                "--spring.datasource.username=postgres", "--spring.datasource.password=",
                "--server.port=0", "--server.tomcat.threads.max=30", "--edp.database.concurrent-requests=20",
                "--edp.database.retry-after=1s",
                "--edp.security.operator.user=outage", "--edp.security.operator.password={noop}outage-secret",
                "--edp.engines.mbufs=4096", "--edp.engines.real-drivers=false")) {
            base = "http://127.0.0.1:" + ((WebServerApplicationContext) manager).getWebServer().getPort();
            var host = hostForwardingTraffic();

            try (var load = new Load()) {
                postgres.close();
                long stopped = System.nanoTime();
                awaitTrue("readiness DOWN", () -> send("GET", "/actuator/health/readiness", null).statusCode() == 503);
                long down = System.nanoTime();
                assertThat(Duration.ofNanos(down - stopped)).as("readiness DOWN after the database stopped")
                        .isLessThan(READINESS_DOWN);

                long forwardedAtDown = forwarded(host);
                for (int i = 0; i < 5; i++) {
                    assertPrompt("/actuator/health/liveness");
                    assertPrompt("/api/v1/hosts/" + host + "/stats/threads");
                }
                awaitTrue("forwarding to go on", () -> forwarded(host) > forwardedAtDown);
                awaitTrue("every client to be answered since readiness went DOWN",
                        () -> load.everyClientAnsweredSince(down));

                var outage = load.answersStartedAfter(down);
                assertThat(outage).allSatisfy(answer -> {
                    assertThat(answer.status()).as("status of %s", answer).isEqualTo(503);
                    assertThat(answer.contentType()).isEqualTo("application/problem+json");
                    assertThat(answer.retryAfter()).isEqualTo("1");
                    assertThat(answer.took()).isLessThan(FAST_FAILURE);
                });
            }

            postgres = postgres(databasePort);
            awaitTrue("readiness UP", () -> send("GET", "/actuator/health/readiness", null).statusCode() == 200);
            assertThat(send("POST", "/api/v1/hosts", hostJson("esx-after-outage")).statusCode()).isEqualTo(201);
        } finally {
            postgres.close();
        }
        assertThat(log).contains("answered 503, the database is unavailable").doesNotContain("Unexpected error");
    }

    /** This test's own PostgreSQL on {@link #data}: a new cluster at first, the same one when started again. */
    private EmbeddedPostgres postgres(int port) throws IOException {
        return EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).setPort(port).start();
    }

    /** A host whose LEGACY engine forwards generator traffic from its loopback NIC to a VM, without end. */
    private String hostForwardingTraffic() throws Exception {
        var host = id(send("POST", "/api/v1/hosts", hostJson("esx-outage")));
        id(send("POST", "/api/v1/hosts/" + host + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}"""));
        var vm = id(send("POST", "/api/v1/hosts/" + host + "/vms", """
                {"name": "web", "vcpus": 2, "numaNode": 0}"""));
        id(send("POST", "/api/v1/hosts/" + host + "/vms/" + vm + "/vnics", """
                {"mac": "%s", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""".formatted(VM_MAC)));
        awaitTrue("the host's engine", () -> JsonPath.read(send("GET", "/api/v1/hosts/" + host + "/realization",
                null).body(), "$.state").equals("SUCCESS"));
        assertThat(send("POST", "/api/v1/hosts/" + host + "/traffic", """
                {"nic": "vmnic0", "flows": 16, "packetsPerSecond": 20000, "destinationMac": "%s"}"""
                .formatted(VM_MAC)).statusCode()).isEqualTo(201);
        long started = forwarded(host);
        awaitTrue("the first forwarded packets", () -> forwarded(host) > started);
        return host;
    }

    private long forwarded(String host) throws Exception {
        List<Number> perWorker = JsonPath.read(send("GET", "/api/v1/hosts/" + host + "/stats/threads", null).body(),
                "$.workers[*].txPackets");
        return perWorker.stream().mapToLong(Number::longValue).sum();
    }

    private void assertPrompt(String path) throws Exception {
        long start = System.nanoTime();
        var response = send("GET", path, null, PROMPT);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as(path).isLessThan(PROMPT);
    }

    private static String hostJson(String name) {
        return """
                {"name": "%s", "managementAddress": "192.0.2.11", "numaNodes": [{"id": 0, "cpuCores": [0, 1]}]}"""
                .formatted(name);
    }

    private static String id(HttpResponse<String> created) {
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JsonPath.read(created.body(), "$.id");
    }

    private HttpResponse<String> send(String method, String path, String json)
            throws IOException, InterruptedException {
        return send(method, path, json, Duration.ofSeconds(60));
    }

    private HttpResponse<String> send(String method, String path, String json, Duration timeout)
            throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout).header("Authorization", AUTH);
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            return http.send(request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new AssertionError(method + " " + path + " did not answer within " + timeout, e);
        }
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    /** Polls every 10 ms until {@code check} holds; fails after 30 s. */
    private static void awaitTrue(String what, Check check) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!check.holds()) {
            assertThat(System.nanoTime()).as("timed out waiting for %s", what).isLessThan(deadline);
            LockSupport.parkNanos(10_000_000);
        }
    }

    /** One answer to a load client: when its request started, how long it took and what came back. */
    private record Answer(int client, long startedAt, Duration took, int status, String contentType,
                          String retryAfter) {
    }

    /**
     * {@link #CLIENTS} clients listing hosts back to back, each on a thread of its own; a client that is told to
     * retry later waits as long as Retry-After says, as a well-behaved client does.
     */
    private final class Load implements AutoCloseable {

        private final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();

        Load() {
            for (int client = 0; client < CLIENTS; client++) {
                int id = client;
                clients.submit(() -> run(id));
            }
        }

        private Void run(int client) throws Exception {
            while (running.get()) {
                long start = System.nanoTime();
                var response = send("GET", "/api/v1/hosts", null);
                var retryAfter = response.headers().firstValue("Retry-After").orElse(null);
                answers.add(new Answer(client, start, Duration.ofNanos(System.nanoTime() - start),
                        response.statusCode(), response.headers().firstValue("Content-Type").orElse(null), retryAfter));
                if (retryAfter != null) {
                    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(Long.parseLong(retryAfter)));
                }
            }
            return null;
        }

        List<Answer> answersStartedAfter(long nanos) {
            return answers.stream().filter(a -> a.startedAt() - nanos > 0).toList();
        }

        boolean everyClientAnsweredSince(long nanos) {
            return answersStartedAfter(nanos).stream().mapToInt(Answer::client).distinct().count() == CLIENTS;
        }

        @Override
        public void close() {
            running.set(false);
            clients.close(); // waits for every client's last request
        }
    }
}
