package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;

import io.edp.bench.ApiBenchmark;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code bench api} against a manager on a real port: a row per read endpoint (for a given host, or for an inventory it
 * loads and deletes), and a one-line error otherwise.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=bench", "edp.security.operator.password={noop}bench-secret"})
class ApiBenchmarkTest {

    private static final String AUTH = "bench:bench-secret";
    private static final String BASIC = "Basic " + Base64.getEncoder().encodeToString(
            AUTH.getBytes(StandardCharsets.UTF_8));

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    @Test
    void measuresEveryReadEndpointOfARunningManager() throws Exception {
        String url = "http://127.0.0.1:" + port;
        String host = id(post(url + "/api/v1/hosts", """
                {"name": "esx-bench-api-%d", "managementAddress": "127.0.0.1",
                 "numaNodes": [{"id": 0, "cpuCores": [0, 1]}]}""".formatted(System.nanoTime())));
        post(url + "/api/v1/hosts/" + host + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (get(url + "/api/v1/hosts/" + host + "/stats/flows") != 200) {
            assertThat(System.nanoTime()).as("the host's engine to run within 30 s").isLessThan(deadline);
            LockSupport.parkNanos(10_000_000);
        }
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();

        int status = ApiBenchmark.run(List.of("--url=" + url, "--host=" + host, "--seconds=1", "--warm-up=0",
                "--concurrency=2", "--load=wrk,builtin"), AUTH, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertRows(status, out, err, 8);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("load from wrk and builtin");
    }

    @Test
    void loadsAnInventoryMeasuresItAndDeletesIt() throws Exception {
        String url = "http://127.0.0.1:" + port;
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();

        int status = ApiBenchmark.run(List.of("--url=" + url, "--hosts=3", "--seconds=1", "--warm-up=1",
                "--concurrency=2"), AUTH, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err,
                true, StandardCharsets.UTF_8));

        assertRows(status, out, err, 4);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("bench api: 3 hosts loaded")
                .contains("load from wrk,");
        assertThat(Files.readString(Path.of("target", "bench", "api.json"))).contains("\"endpoint\": "
                + "\"/api/v1/hosts?size=100\", \"load\": \"wrk\", \"concurrency\": 2, \"requests_per_second\": ");
        var left = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url
                + "/api/v1/hosts?label=edp-bench")).header("Authorization", BASIC).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(left).as("hosts left by the bench").contains("\"totalElements\":0");
    }

    /** {@code expected} rows, each with answers, p99 ≥ p50 and no errors. */
    private static void assertRows(int status, ByteArrayOutputStream out, ByteArrayOutputStream err, int expected) {
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as("exit status; out:%n%s%nerr:%n%s", printed, err).isZero();
        var row = Pattern.compile("^(/api/v1/\\S+)\\s+(?:wrk|builtin)\\s+(\\d+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+0\\s+"
                        + "-?[\\d.]+$", Pattern.MULTILINE)
                .matcher(printed);
        int rows = 0;
        while (row.find()) {
            rows++;
            assertThat(Long.parseLong(row.group(2))).as("req/s of %s", row.group(1)).isPositive();
            assertThat(Double.parseDouble(row.group(4))).isGreaterThanOrEqualTo(Double.parseDouble(row.group(3)));
        }
        assertThat(rows).as("rows in%n%s", printed).isEqualTo(expected);
    }

    @Test
    void anUnknownHostOrMissingCredentialsAreAOneLineError() {
        var err = new ByteArrayOutputStream();
        var errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        var out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        String url = "--url=http://127.0.0.1:" + port;

        assertThat(ApiBenchmark.run(List.of(url, "--host=00000000-0000-0000-0000-000000000000"), AUTH, out,
                errors)).isEqualTo(1);
        assertThat(ApiBenchmark.run(List.of(url, "--host=x"), null, out, errors)).isEqualTo(2);
        assertThat(ApiBenchmark.run(List.of("--host=x"), AUTH, out, errors)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "bench api: GET /api/v1/hosts/00000000-0000-0000-0000-000000000000/stats/flows?size=100 answered "
                        + "404: check --host and EDP_AUTH",
                "bench api: set EDP_AUTH to user:password of a viewer or operator",
                "usage: bench api [--url=URL [--host=ID]] [--hosts=N] [--seconds=N] [--warm-up=N] [--concurrency=N] "
                        + "[--load=wrk|builtin|wrk,builtin] (with --url: credentials user:password in EDP_AUTH)");
    }

    private static int get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", BASIC).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String post(String url, String json) throws Exception {
        var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", BASIC)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return response.body();
    }

    private static String id(String body) {
        var matcher = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"").matcher(body);
        assertThat(matcher.find()).as(body).isTrue();
        return matcher.group(1);
    }
}
