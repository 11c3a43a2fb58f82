package io.edp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bench api --url=URL --host=ID [--seconds=N] [--clients=N]}: requests per second and p50/p99 latency of the
 * read endpoints of a running manager, each endpoint in turn for N seconds (default 5) from N concurrent clients
 * (default 4), credentials {@code user:password} from the environment variable {@code EDP_AUTH}. An endpoint whose
 * first answer is not 2xx stops the run before its row; a later non-2xx answer is counted in its row and fails the
 * run (exit 1).
 */
public final class ApiBenchmark {

    private static final String USAGE = "usage: bench api --url=URL --host=ID [--seconds=N] [--clients=N] "
            + "(credentials user:password in EDP_AUTH)";
    private static final List<String> ENDPOINTS = List.of("/api/v1/hosts/{id}/stats/flows?size=100",
            "/api/v1/hosts/{id}/stats/flow-cache", "/api/v1/hosts/{id}/stats/threads", "/api/v1/hosts?size=100");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String host;
    private final String authorization;
    private final Duration window;
    private final int clients;

    private ApiBenchmark(String base, String host, String auth, Duration window, int clients) {
        this.base = base;
        this.host = host;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(auth.getBytes(StandardCharsets.UTF_8));
        this.window = window;
        this.clients = clients;
    }

    public static int run(List<String> options, String auth, PrintStream out, PrintStream err) {
        String url = null;
        String host = null;
        long seconds = 5;
        long clients = 4;
        for (String option : options) {
            String[] nameValue = option.split("=", 2);
            String value = nameValue.length == 2 ? nameValue[1] : "";
            switch (nameValue[0]) {
                case "--url" -> url = value.replaceAll("/+$", "");
                case "--host" -> host = value;
                case "--seconds" -> seconds = value.matches("\\d{1,4}") ? Long.parseLong(value) : -1;
                case "--clients" -> clients = value.matches("\\d{1,3}") ? Long.parseLong(value) : -1;
                default -> seconds = -1;
            }
        }
        if (url == null || url.isEmpty() || host == null || host.isEmpty() || seconds <= 0 || clients <= 0) {
            err.println(USAGE);
            return 2;
        }
        if (auth == null || !auth.contains(":")) {
            err.println("bench api: set EDP_AUTH to user:password of a viewer or operator");
            return 2;
        }
        try {
            return new ApiBenchmark(url, host, auth, Duration.ofSeconds(seconds), (int) clients).measure(out, err);
        } catch (IOException | InterruptedException | ExecutionException e) {
            err.println("bench api: " + url + " did not answer: " + e);
            return 1;
        }
    }

    private int measure(PrintStream out, PrintStream err) throws IOException, InterruptedException, ExecutionException {
        out.printf(Locale.ROOT, "bench api: %s, host %s, %d clients, %d s per endpoint%n", base, host, clients,
                window.toSeconds());
        out.printf(Locale.ROOT, "%-45s %10s %10s %10s %8s%n", "endpoint", "req/s", "p50 ms", "p99 ms", "errors");
        boolean failed = false;
        for (String endpoint : ENDPOINTS) {
            String path = endpoint.replace("{id}", host);
            int first = get(path); // warms the connection
            if (first / 100 != 2) {
                err.println("bench api: GET " + path + " answered " + first + ": check --host and EDP_AUTH");
                return 1;
            }
            AtomicLong errors = new AtomicLong();
            long start = System.nanoTime();
            long end = start + window.toNanos();
            List<long[]> latencies = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
                List<Future<long[]>> results = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    results.add(pool.submit(() -> client(path, end, errors)));
                }
                for (Future<long[]> result : results) {
                    latencies.add(result.get());
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
            out.printf(Locale.ROOT, "%-45s %10.0f %10.2f %10.2f %8d%n", endpoint, all.length / seconds,
                    all[all.length / 2] / 1e6, all[(int) Math.ceil(all.length * 0.99) - 1] / 1e6, errors.get());
            failed |= errors.get() > 0;
        }
        return failed ? 1 : 0;
    }

    /** One client's latencies (ns) until {@code end}; a non-2xx answer is counted in {@code errors}. */
    private long[] client(String path, long end, AtomicLong errors) throws IOException, InterruptedException {
        long[] latencies = new long[1024];
        int n = 0;
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            int status = get(path);
            if (n == latencies.length) {
                latencies = Arrays.copyOf(latencies, n * 2);
            }
            latencies[n++] = System.nanoTime() - t0;
            if (status / 100 != 2) {
                errors.incrementAndGet();
            }
        }
        return Arrays.copyOf(latencies, n);
    }

    private int get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", authorization)
                .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
