package io.edp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code bench api [--url=URL [--host=ID]] [--hosts=N] [--seconds=N] [--warm-up=N] [--concurrency=N]
 * [--load=wrk|builtin|wrk,builtin]}: requests per second and p50/p99 latency of the manager's read endpoints under a
 * fixed number of concurrent keep-alive connections (default 16): each endpoint in turn for a warm-up (default 10 s),
 * then each in turn for a measured window (default 5 s).
 * The load comes from wrk by default ({@link Wrk}, its own process; a run without it on PATH stops at once, saying
 * so), or from the built-in generator in this JVM ({@link HttpLoad}); with both, each endpoint's window is measured
 * by each in turn, so that they can be compared in one run.
 * Without {@code --url} it starts the manager in this process ({@link InProcessManager}); with it, it reads a
 * running manager with the credentials {@code user:password} of the environment variable {@code EDP_AUTH}. Unless
 * {@code --host} names a host to read, it first loads an inventory ({@link ApiInventory}, N hosts, default 100;
 * with {@code --url} this needs an operator) and deletes it at the end. Writes target/bench/api.json. An endpoint
 * whose first answer is not 2xx stops the run before its row; a later failed answer is counted in its row and
 * fails the run (exit 1).
 */
public final class ApiBenchmark {

    private static final String USAGE = "usage: bench api [--url=URL [--host=ID]] [--hosts=N] [--seconds=N] "
            + "[--warm-up=N] [--concurrency=N] [--load=wrk|builtin|wrk,builtin] (with --url: credentials "
            + "user:password in EDP_AUTH)";
    private static final List<String> ENDPOINTS = List.of("/api/v1/hosts/{id}/stats/flows?size=100",
            "/api/v1/hosts/{id}/stats/flow-cache", "/api/v1/hosts/{id}/stats/threads", "/api/v1/hosts?size=100");
    /** The manager's settings in this process: a hundred hosts' engines with fewer packet buffers each. */
    // it starts no capture: the rings four running captures may take (the default) would put 100 hosts over the
    // engines' memory budget of a default heap
    private static final String[] MANAGER_SETTINGS = {"--edp.engines.mbufs=2048", "--edp.capture.max-running=1"};
    private static final Path POSTMASTER_PID = Path.of("target", "bench", "postgres", "postmaster.pid");

    /**
     * One row: an endpoint at a concurrency, and the CPU time this process and the embedded PostgreSQL (when the
     * manager runs here) spent in its window per request: on a shared machine requests per second follow what the
     * other work leaves over, the CPU a request costs much less so. It includes what the process does meanwhile
     * anyway (the hosts' engines, the JIT, the collector), so it compares builds, not endpoints; the built-in
     * generator's own work is in it, wrk's (a process of its own) is not.
     */
    record Row(String endpoint, Generator load, int concurrency, LoadResult result, double cpuMillisPerRequest) {
    }

    /** Who sends the requests. */
    enum Generator {
        WRK, BUILTIN;

        LoadResult run(String url, String target, String credentials, int connections, Duration warmUp,
                       Duration window) throws IOException, InterruptedException {
            var base = URI.create(url);
            String authorization = BenchRest.basic(credentials);
            return switch (this) {
                case WRK -> Wrk.run(base, target, authorization, connections, warmUp, window);
                case BUILTIN -> HttpLoad.run(base, target, authorization, connections, warmUp, window);
            };
        }

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private record Options(String url, String host, int hosts, Duration window, Duration warmUp, int concurrency,
                           List<Generator> loads) {
    }

    private ApiBenchmark() {
    }

    public static int run(List<String> arguments, String auth, PrintStream out, PrintStream err) {
        var options = parse(arguments);
        if (options == null) {
            err.println(USAGE);
            return 2;
        }
        if (options.loads().contains(Generator.WRK) && !HostCommand.missing(Wrk.TOOL).isEmpty()) {
            err.println("bench api: not found on PATH: wrk (Debian: sudo apt-get install -y wrk), or measure with the "
                    + "built-in generator: --load=builtin");
            return 1;
        }
        if (options.url() == null) {
            try (var manager = InProcessManager.start(MANAGER_SETTINGS)) {
                return measure(options, manager.url(), manager.credentials(), out, err);
            }
        }
        if (auth == null || !auth.contains(":")) {
            err.println("bench api: set EDP_AUTH to user:password of a viewer or operator");
            return 2;
        }
        return measure(options, options.url(), auth, out, err);
    }

    private static Options parse(List<String> arguments) {
        String url = null;
        String host = null;
        long hosts = 100;
        long seconds = 5;
        // long enough for C2 to have compiled the request path before the first window: with 2 s per endpoint it
        // was still compiling through the third, and the windows measured the JIT (docs/benchmarks.md)
        long warmUp = 10;
        long concurrency = 16;
        List<Generator> loads = List.of(Generator.WRK);
        for (String argument : arguments) {
            String[] nameValue = argument.split("=", 2);
            String value = nameValue.length == 2 ? nameValue[1] : "";
            long number = value.matches("\\d{1,4}") ? Long.parseLong(value) : -1;
            switch (nameValue[0]) {
                case "--url" -> url = value.replaceAll("/+$", "");
                case "--host" -> host = value;
                case "--hosts" -> hosts = number;
                case "--seconds" -> seconds = number;
                case "--warm-up" -> warmUp = number;
                case "--concurrency" -> concurrency = number;
                case "--load" -> loads = loads(value);
                default -> {
                    return null;
                }
            }
        }
        boolean valid = (url == null ? host == null : !url.isEmpty()) && (host == null || !host.isEmpty())
                && hosts > 0 && seconds > 0 && warmUp >= 0 && concurrency > 0 && concurrency <= 1024
                && !loads.isEmpty();
        return valid ? new Options(url, host, (int) hosts, Duration.ofSeconds(seconds), Duration.ofSeconds(warmUp),
                (int) concurrency, loads) : null;
    }

    /** {@code wrk}, {@code builtin} or both, comma-separated, in that order of measuring; none if any is unknown. */
    private static List<Generator> loads(String value) {
        List<Generator> loads = new ArrayList<>();
        for (String name : value.split(",")) {
            var load = Arrays.stream(Generator.values()).filter(g -> g.label().equals(name)).findFirst();
            if (load.isEmpty() || loads.contains(load.get())) {
                return List.of();
            }
            loads.add(load.get());
        }
        return loads;
    }

    private static int measure(Options options, String url, String credentials, PrintStream out, PrintStream err) {
        var rest = new BenchRest(url, credentials);
        ApiInventory inventory = null;
        try {
            if (options.host() == null) {
                inventory = ApiInventory.load(rest, options.hosts(), out);
            }
            String host = options.host() != null ? options.host() : inventory.busyHost();
            return measure(options, url, rest, credentials, host, out, err);
        } catch (IOException | InterruptedException | RuntimeException e) {
            err.println("bench api: " + url + ": " + e.getMessage());
            return 1;
        } finally {
            if (inventory != null) {
                try {
                    inventory.delete();
                } catch (IOException | InterruptedException | RuntimeException e) {
                    err.println("bench api: could not delete the inventory: " + e.getMessage());
                }
            }
        }
    }

    private static int measure(Options options, String url, BenchRest rest, String credentials, String host,
                               PrintStream out, PrintStream err) throws IOException, InterruptedException {
        var load = MachineLoad.read();
        out.printf(Locale.ROOT, "bench api: %s, host %s, %d connections, %d s warm-up and %d s measured per endpoint, "
                        + "load from %s, load average %.2f%n", url, host, options.concurrency(),
                options.warmUp().toSeconds(), options.window().toSeconds(),
                options.loads().stream().map(Generator::label).collect(Collectors.joining(" and ")), load.oneMinute());
        out.printf(Locale.ROOT, "%-45s %-8s %10s %10s %10s %8s %12s%n", "endpoint", "load", "req/s", "p50 ms",
                "p99 ms", "errors", "cpu ms/req");
        for (String endpoint : ENDPOINTS) {
            String target = endpoint.replace("{id}", host);
            int first = rest.status(target);
            if (first / 100 != 2) {
                err.println("bench api: GET " + target + " answered " + first + ": check --host and EDP_AUTH");
                return 1;
            }
        }
        // every endpoint warms up before any is measured, so that the first measured is not the one the JIT and
        // the fresh inventory's garbage cost most
        for (String endpoint : options.warmUp().isZero() ? List.<String>of() : ENDPOINTS) {
            options.loads().getFirst().run(url, endpoint.replace("{id}", host), credentials, options.concurrency(),
                    Duration.ZERO, options.warmUp());
        }
        List<Row> rows = new ArrayList<>();
        for (String endpoint : ENDPOINTS) {
            for (Generator generator : options.loads()) {
                long cpuBefore = cpuNanos();
                var result = generator.run(url, endpoint.replace("{id}", host), credentials, options.concurrency(),
                        Duration.ZERO, options.window());
                double cpuPerRequest = (cpuNanos() - cpuBefore) / 1e6 / Math.max(1, result.requests());
                out.printf(Locale.ROOT, "%-45s %-8s %10.0f %10.2f %10.2f %8d %12.3f%n", endpoint, generator.label(),
                        result.requestsPerSecond(), result.p50Millis(), result.p99Millis(), result.errors(),
                        cpuPerRequest);
                rows.add(new Row(endpoint, generator, options.concurrency(), result, cpuPerRequest));
            }
        }
        var file = Path.of("target", "bench", "api.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, json(rows, load));
        out.printf(Locale.ROOT, "load average %.2f after the run; wrote %s%n", MachineLoad.read().oneMinute(), file);
        return rows.stream().anyMatch(row -> row.result().errors() > 0) ? 1 : 0;
    }

    /**
     * CPU time so far of this process (exited threads included; not wrk's, a child process) and of the embedded
     * PostgreSQL when the manager runs here: its postmaster, the backends that ended (which the postmaster reaped),
     * and those alive, from /proc (clock ticks of 10 ms). Without the ended backends a window in which one ended
     * could come out negative.
     */
    private static long cpuNanos() {
        long ticks = ticks(Path.of("/proc/self/stat"), false);
        try {
            String postmaster = Files.readAllLines(POSTMASTER_PID).getFirst().strip();
            ticks += ticks(Path.of("/proc", postmaster, "stat"), true);
            try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
                ticks += processes.filter(process -> process.getFileName().toString().matches("\\d+"))
                        .map(process -> process.resolve("stat"))
                        .filter(stat -> isChild(stat, postmaster))
                        .mapToLong(stat -> ticks(stat, false)).sum();
            }
        } catch (IOException | RuntimeException e) {
            // no embedded database here (--url, or SPRING_DATASOURCE_URL): this process only
        }
        return ticks * 10_000_000L;
    }

    /** Whether the process of {@code stat} is a child of {@code parent}; not if it ended. */
    private static boolean isChild(Path stat, String parent) {
        String[] fields = statFields(stat);
        return fields.length > 1 && parent.equals(fields[1]);
    }

    /** User and system time of a process, with that of its reaped children if asked, in clock ticks; 0 if it ended. */
    private static long ticks(Path stat, boolean reapedChildren) {
        String[] fields = statFields(stat);
        if (fields.length < 15) {
            return 0;
        }
        long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return reapedChildren ? own + Long.parseLong(fields[13]) + Long.parseLong(fields[14]) : own;
    }

    /** The fields of /proc/PID/stat after the command name (state, ppid, ...); none if the process ended. */
    private static String[] statFields(Path stat) {
        try {
            String line = Files.readString(stat);
            return line.substring(line.lastIndexOf(')') + 2).split(" ");
        } catch (IOException e) {
            return new String[0];
        }
    }

    private static String json(List<Row> rows, MachineLoad before) {
        return rows.stream().map(row -> String.format(Locale.ROOT,
                                "  {\"endpoint\": \"%s\", \"load\": \"%s\", \"concurrency\": %d, "
                                + "\"requests_per_second\": %.1f, \"p50_ms\": %.3f, \"p99_ms\": %.3f, \"errors\": %d, "
                                + "\"cpu_ms_per_request\": %.3f}",
                        row.endpoint(), row.load().label(), row.concurrency(), row.result().requestsPerSecond(),
                        row.result().p50Millis(), row.result().p99Millis(),
                        row.result().errors(), row.cpuMillisPerRequest()))
                .collect(Collectors.joining(",\n", String.format(Locale.ROOT,
                        "{\"load_average_before\": %.2f, \"results\": [%n", before.oneMinute()), "\n]}\n"));
    }
}
