package io.edp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

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
    private final BenchRest rest;
    private final JdbcTemplate jdbc;

    private PushBenchmark(PrintStream out, BenchRest rest, JdbcTemplate jdbc) {
        this.out = out;
        this.rest = rest;
        this.jdbc = jdbc;
    }

    public static int run(PrintStream out) {
        try (var manager = InProcessManager.start()) {
            return new PushBenchmark(out, new BenchRest(manager.url(), manager.credentials()),
                    manager.context().getBean(JdbcTemplate.class)).measure();
        } catch (IOException | InterruptedException e) {
            out.println("bench push failed: " + e);
            return 1;
        }
    }

    private int measure() throws IOException, InterruptedException {
        var hostName = "bench-" + Long.toString(System.currentTimeMillis(), 36);
        var host = BenchRest.id(rest.send("POST", "/api/v1/hosts", """
                {"name": "%s", "managementAddress": "127.0.0.1", "numaNodes": [{"id": 0, "cpuCores": [0, 1]}]}"""
                .formatted(hostName)));
        rest.send("POST", "/api/v1/hosts/" + host + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 2, "rss": true,
                 "driver": {"kind": "loopback"}}""");
        var vm = BenchRest.id(rest.send("POST", "/api/v1/hosts/" + host + "/vms", """
                {"name": "web", "vcpus": 2, "numaNode": 0}"""));
        rest.send("POST", "/api/v1/hosts/" + host + "/vms/" + vm + "/vnics", """
                {"mac": "00:50:56:aa:bb:01", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""");
        out.printf("bench push: host %s (1 loopback NIC, 1 VM), %,d changes after %d warm-up%n", hostName, CHANGES,
                WARM_UP);
        try {
            double[] millis = new double[CHANGES];
            for (int i = -WARM_UP; i < CHANGES; i++) {
                var mode = (i & 1) == 0 ? "EDP_STANDARD" : "LEGACY";
                long start = System.nanoTime(); // before the PUT: the operator waits for the request too
                rest.send("PUT", "/api/v1/hosts/" + host + "/edp", "{\"settings\": {\"mode\": \"" + mode + "\"}}");
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
            rest.send("DELETE", "/api/v1/hosts/" + host, null);
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
}
