package io.edp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;

import io.edp.EdpApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code bench push}: push-to-realized latency. Starts the manager in this process (embedded PostgreSQL under
 * target/bench/postgres unless SPRING_DATASOURCE_URL names a database), creates a host with a loopback NIC and a VM,
 * then makes 1,000 configuration changes over REST, alternating the host's mode between EDP_STANDARD and LEGACY.
 * Each latency runs from just before the PUT is sent (so the request, its validation and its commit are in the
 * figure) to the moment the host's realization row shows the generation that PUT produced as realized, polled in
 * the database every 100 µs. Writes target/bench/push.json.
 */
public final class PushBenchmark {

    private static final int CHANGES = Integer.getInteger("changes", 1_000);
    private static final int WARM_UP = 50;

    private final PrintStream out;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String authorization;
    private String base;
    private JdbcTemplate jdbc;

    private PushBenchmark(PrintStream out, String password) {
        this.out = out;
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString(("bench:" + password).getBytes(StandardCharsets.UTF_8));
    }

    public static int run(PrintStream out) {
        var password = UUID.randomUUID().toString();
        // as command-line arguments, so that they win over application.yaml's environment mappings
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(EdpApplication.class)
                .run("--server.port=0", "--edp.data-dir=target/bench",
                        "--edp.security.operator.user=bench", "--edp.security.operator.password={noop}" + password,
                        "--logging.level.root=WARN", "--spring.main.banner-mode=off")) {
            var bench = new PushBenchmark(out, password);
            bench.base = "http://127.0.0.1:" + ((WebServerApplicationContext) context).getWebServer().getPort();
            bench.jdbc = context.getBean(JdbcTemplate.class);
            return bench.measure();
        } catch (IOException | InterruptedException e) {
            out.println("bench push failed: " + e);
            return 1;
        }
    }

    private int measure() throws IOException, InterruptedException {
        var hostName = "bench-" + Long.toString(System.currentTimeMillis(), 36);
        var host = id(send("POST", "/api/v1/hosts", """
                {"name": "%s", "managementAddress": "127.0.0.1", "numaNodes": [{"id": 0, "cpuCores": [0, 1]}]}"""
                .formatted(hostName)));
        send("POST", "/api/v1/hosts/" + host + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 2, "rss": true,
                 "driver": {"kind": "loopback"}}""");
        var vm = id(send("POST", "/api/v1/hosts/" + host + "/vms", """
                {"name": "web", "vcpus": 2, "numaNode": 0}"""));
        send("POST", "/api/v1/hosts/" + host + "/vms/" + vm + "/vnics", """
                {"mac": "00:50:56:aa:bb:01", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""");
        out.printf("bench push: host %s (1 loopback NIC, 1 VM), %,d changes after %d warm-up%n", hostName, CHANGES,
                WARM_UP);
        try {
            double[] millis = new double[CHANGES];
            for (int i = -WARM_UP; i < CHANGES; i++) {
                var mode = (i & 1) == 0 ? "EDP_STANDARD" : "LEGACY";
                long start = System.nanoTime(); // before the PUT: the operator waits for the request too
                send("PUT", "/api/v1/hosts/" + host + "/edp", "{\"settings\": {\"mode\": \"" + mode + "\"}}");
                awaitRealized(host, desiredGeneration(host));
                if (i >= 0) {
                    millis[i] = (System.nanoTime() - start) / 1e6;
                }
            }
            Arrays.sort(millis);
            double p50 = millis[CHANGES / 2];
            double p99 = millis[(int) Math.ceil(CHANGES * 0.99) - 1];
            double max = millis[CHANGES - 1];
            out.printf(Locale.ROOT, "push-to-realized: p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 <= 100 ms)%n",
                    p50, p99, max);
            var file = Path.of("target", "bench", "push.json");
            Files.createDirectories(file.getParent());
            Files.writeString(file, String.format(Locale.ROOT,
                    "{\"changes\": %d, \"p50_ms\": %.3f, \"p99_ms\": %.3f, \"max_ms\": %.3f}%n", CHANGES, p50, p99,
                    max));
            out.println("wrote " + file);
            return p99 <= 100 ? 0 : 1;
        } finally {
            send("DELETE", "/api/v1/hosts/" + host, null);
        }
    }

    private long desiredGeneration(String host) {
        return jdbc.queryForObject("SELECT desired_generation FROM host_realization WHERE host_id = ?::uuid",
                Long.class, host);
    }

    /** Polls the realization row: reading the database directly keeps the poll itself out of the figure. */
    private void awaitRealized(String host, long generation) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!Boolean.TRUE.equals(jdbc.queryForObject("SELECT realized_generation >= ? AND state = 'SUCCESS' "
                + "FROM host_realization WHERE host_id = ?::uuid", Boolean.class, generation, host))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("host " + host + " did not realize generation " + generation);
            }
            LockSupport.parkNanos(100_000);
        }
    }

    private String send(String method, String path, String json) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", authorization)
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        var response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return response.body();
    }

    private static String id(String body) {
        var matcher = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"").matcher(body);
        if (!matcher.find()) {
            throw new IllegalStateException("no id in " + body);
        }
        return matcher.group(1);
    }
}
