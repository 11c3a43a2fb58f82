package io.edp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.regex.Pattern;

import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bench fleet [--agents N] [--replicas R] [--changes C] [--warm-up W] [--embedded E]}: a change committed
 * through one manager replica, until every agent of the fleet runs it. Starts R manager replicas (JVMs of their own
 * on the PostgreSQL database SPRING_DATASOURCE_URL names, each on a free port), creates N hosts placed AGENT (a
 * loopback NIC, EDP_STANDARD, 1,024 mbufs, a 1,024-entry flow cache), issues each an agent token, and runs their N
 * agents in one more JVM ({@code bench fleet-agents}, {@link io.edp.agent.AgentLauncher}), host i's agent talking to
 * replica i mod R first and to the others after it. Once every host is realized it makes W warm-up changes (default
 * 5: the three JVMs' JIT is still compiling the paths a change takes), printed and written as {@code warm_up_ms}
 * but kept out of the percentiles, then C measured firewall-rule changes, all through the replicas in turn: each
 * one's latency runs from the write's answer (its commit) until every host it bumped shows its generation realized
 * (the database, polled every 5 ms, so the poll stays out of the figure). Then it writes once more through replica 1
 * and at once kills the last one with SIGKILL:
 * {@code replica_kill_converge_s} runs until every host is realized through the survivors. Only replica 1 runs
 * embedded engines ({@code edp.engines.embedded}); last, E hosts placed EMBEDDED on it (default min(N, 20)), for
 * the manager's memory and threads per host in either placement. Writes
 * {@code target/bench/fleet.json}; the replicas' and the agents' output go to target/bench/fleet-*.log.
 */
final class FleetBenchmark {

    static final String USAGE = "usage: bench fleet [--agents N] [--replicas R] [--changes C] [--warm-up W] "
            + "[--embedded E] (on the PostgreSQL database of SPRING_DATASOURCE_URL)";
    private static final Path DIR = Path.of("target", "bench");
    private static final Path OUTPUT = DIR.resolve("fleet.json");
    private static final JsonMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    private static final Duration START = Duration.ofSeconds(360); // replicas start in minutes on a loaded machine
    private static final Duration CONVERGE = Duration.ofSeconds(120);
    private static final Pattern BUMPED = Pattern.compile(
            "\\{\"hostId\":\"([0-9a-f-]{36})\",\"generation\":(\\d+)}");
    private static final Pattern RULE_ID = Pattern.compile("\"id\":(\\d+)");
    private static final Pattern LEFTOVER_RULE = Pattern.compile("\"id\":(\\d+),\"name\":\"bench-fleet\"");
    private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");
    /** Small engines: the fleet's many hosts, not one host's throughput, are measured. */
    private static final List<String> ENGINE_SETTINGS = List.of("--edp.engines.mbufs=1024",
            "--edp.engines.conntrack-capacity=256");

    record Options(int agents, int replicas, int changes, int warmUp, int embedded) {
    }

    /** A process's resident memory and threads, from /proc/PID/status. */
    record Usage(long rssBytes, int threads) {

        static Usage of(ProcessHandle process) {
            try {
                long rss = 0;
                int threads = 0;
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                    if (line.startsWith("VmRSS:")) {
                        rss = Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                    } else if (line.startsWith("Threads:")) {
                        threads = Integer.parseInt(line.replaceAll("\\D", ""));
                    }
                }
                return new Usage(rss, threads);
            } catch (IOException e) {
                throw new IllegalStateException("process " + process.pid() + " is gone", e);
            }
        }

        Usage plus(Usage other) {
            return new Usage(rssBytes + other.rssBytes, threads + other.threads);
        }

        /** What each of {@code hosts} added since {@code before}. */
        PerHost perHost(Usage before, int hosts) {
            return new PerHost(hosts, rssBytes, threads, (rssBytes - before.rssBytes) / hosts / 1024.0 / 1024.0,
                    (threads - before.threads) / (double) hosts);
        }
    }

    /** The manager processes' memory and threads with {@code hosts} hosts, and what each host added. */
    record PerHost(int hosts, long rssBytes, int threads, double rssMibPerHost, double threadsPerHost) {
    }

    /**
     * Where a change's time goes, from the reports' side: after the commit, when the first, the median and the last
     * of the hosts' realization reports was written (host_realization.last_success_at, the report's transaction
     * start). The first shows the path of one agent (notification, woken poll, apply, report); the spread up to the
     * last shows what serving the whole fleet adds; the last report to the bench's figure is the bench's own poll.
     */
    record Reports(double firstMs, double medianMs, double lastMs) {
    }

    record Result(int agents, int replicas, int changes, double p50Ms, double p99Ms, double maxMs, List<Long> warmUpMs,
                  Double replicaKillConvergeS, double firstRealizeS, Reports reportsP50, PerHost agentPlacement,
                  PerHost embeddedPlacement, Usage agentLauncher, double loadAverage) {
    }

    private final Options options;
    private final PrintStream out;
    private final String credentials = "bench:" + UUID.randomUUID();
    private final List<Process> replicas = new ArrayList<>();
    private final List<String> urls = new ArrayList<>();
    private final Map<String, String> hostNames = new LinkedHashMap<>();
    private final Map<String, String> datasource;
    private final Connection database;

    private FleetBenchmark(Options options, Map<String, String> datasource, PrintStream out, Connection database) {
        this.options = options;
        this.datasource = datasource;
        this.out = out;
        this.database = database;
    }

    /** {@code environment}: where SPRING_DATASOURCE_URL, _USERNAME and _PASSWORD are read, for every replica. */
    static int run(List<String> arguments, Map<String, String> environment, PrintStream out, PrintStream err) {
        var options = parse(arguments);
        if (options == null) {
            err.println(USAGE);
            return 2;
        }
        var url = environment.get("SPRING_DATASOURCE_URL");
        if (url == null || !url.startsWith("jdbc:postgresql:")) {
            err.println("bench fleet: set SPRING_DATASOURCE_URL (and SPRING_DATASOURCE_USERNAME/PASSWORD) to the "
                    + "PostgreSQL database the replicas share");
            return 2;
        }
        Map<String, String> datasource = new HashMap<>();
        for (String name : List.of("SPRING_DATASOURCE_URL", "SPRING_DATASOURCE_USERNAME",
                "SPRING_DATASOURCE_PASSWORD")) {
            if (environment.get(name) != null) {
                datasource.put(name, environment.get(name));
            }
        }
        try (var database = DriverManager.getConnection(url, datasource.get("SPRING_DATASOURCE_USERNAME"),
                datasource.get("SPRING_DATASOURCE_PASSWORD"))) {
            return new FleetBenchmark(options, datasource, out, database).measure();
        } catch (SQLException | IOException | RuntimeException e) {
            err.println("bench fleet: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("bench fleet: interrupted");
            return 1;
        }
    }

    private static Options parse(List<String> arguments) {
        int agents = 200;
        int replicas = 2;
        int changes = 20;
        int warmUp = 5;
        int embedded = -1;
        for (int i = 0; i < arguments.size(); i += 2) {
            String value = i + 1 < arguments.size() ? arguments.get(i + 1) : "";
            int number = value.matches("\\d{1,5}") ? Integer.parseInt(value) : -1;
            switch (arguments.get(i)) {
                case "--agents" -> agents = number;
                case "--replicas" -> replicas = number;
                case "--changes" -> changes = number;
                case "--warm-up" -> warmUp = number;
                case "--embedded" -> embedded = number;
                default -> {
                    return null;
                }
            }
            if (number < 0) {
                return null;
            }
        }
        boolean valid = agents > 0 && replicas > 0 && replicas <= 8 && changes > 0;
        return valid ? new Options(agents, replicas, changes, warmUp, embedded < 0 ? Math.min(agents, 20) : embedded)
                : null;
    }

    private int measure() throws IOException, InterruptedException, SQLException {
        var before = new ArrayList<Usage>();
        Process launcher = null;
        String rule = null;
        try {
            startReplicas();
            for (Process replica : replicas) {
                before.add(Usage.of(replica.toHandle()));
            }
            var rest = rest(0);
            ApiInventory.deleteBenchHosts(rest);
            deleteLeftoverRule(rest);
            rule = ruleId(rest.send("POST", "/api/v1/firewall/rules", rule(0)));
            var specs = createHosts();
            long started = System.nanoTime();
            launcher = startAgents(specs);
            awaitRealized(desiredGenerations(), CONVERGE, "the fleet's first realization");
            double firstRealize = (System.nanoTime() - started) / 1e9;
            out.printf(Locale.ROOT, "fleet: all %d agents realized their hosts in %.1f s%n", hostNames.size(),
                    firstRealize);
            var agentPlacement = managers().perHost(sum(before), hostNames.size());
            var launcherUsage = Usage.of(launcher.toHandle());

            List<Long> warmUp = new ArrayList<>();
            for (int i = 0; i < options.warmUp(); i++) {
                var change = change(rule, i, "warm-up change " + (i + 1) + "/" + options.warmUp());
                warmUp.add(Math.round(change.millis()));
            }
            double[] millis = new double[options.changes()];
            List<Reports> reports = new ArrayList<>();
            for (int i = 0; i < options.changes(); i++) {
                var change = change(rule, options.warmUp() + i, "change " + (i + 1) + "/" + options.changes());
                millis[i] = change.millis();
                reports.add(change.reports());
            }
            Double killConverge = replicas.size() > 1 ? killAReplicaMidChange(rule) : null;
            launcher.destroy(); // before its hosts go

            PerHost embeddedPlacement = null;
            if (options.embedded() > 0) {
                embeddedPlacement = embeddedHosts();
            }
            Arrays.sort(millis);
            var result = new Result(options.agents(), replicas.size(), options.changes(), millis[millis.length / 2],
                    millis[(int) Math.ceil(millis.length * 0.99) - 1], millis[millis.length - 1], warmUp, killConverge,
                    firstRealize, new Reports(median(reports, Reports::firstMs), median(reports, Reports::medianMs),
                    median(reports, Reports::lastMs)), agentPlacement, embeddedPlacement, launcherUsage,
                    MachineLoad.read().oneMinute());
            Files.createDirectories(DIR);
            Files.writeString(OUTPUT, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result));
            print(result);
            out.println("wrote " + OUTPUT);
            return 0;
        } finally {
            cleanUp(launcher, rule);
        }
    }

    /** One change's latency and when its reports were written. */
    private record Change(double millis, Reports reports) {
    }

    /** The rule's change number {@code n} (0 first), through the replicas in turn, until every host runs it. */
    private Change change(String rule, int n, String what) throws IOException, InterruptedException, SQLException {
        int through = n % replicas.size();
        var bumped = bumped(rest(through).send("PUT", "/api/v1/firewall/rules/" + rule, rule(n + 1)));
        long committed = System.nanoTime();
        long committedAt = System.currentTimeMillis(); // the database's clock is this machine's
        awaitRealized(bumped, CONVERGE, what);
        double millis = (System.nanoTime() - committed) / 1e6;
        var reports = reports(bumped.keySet(), committedAt);
        out.printf(Locale.ROOT, "fleet: %s through replica %d: every agent ran it after %.0f ms (reports written "
                + "after %.0f, %.0f, %.0f ms: first, median, last)%n", what, through + 1, millis, reports.firstMs(),
                reports.medianMs(), reports.lastMs());
        return new Change(millis, reports);
    }

    private void startReplicas() throws IOException, InterruptedException {
        var jvm = ForkedJvm.ofClassPath(List.of("-Xmx1g"));
        var password = credentials.substring(credentials.indexOf(':') + 1);
        for (int i = 0; i < options.replicas(); i++) {
            int port = freePort();
            List<String> arguments = new ArrayList<>(List.of("--server.port=" + port,
                    "--edp.data-dir=" + DIR.resolve("fleet-replica-" + (i + 1)), "--edp.security.operator.user=bench",
                    "--logging.level.root=WARN", "--spring.main.banner-mode=off"));
            arguments.addAll(ENGINE_SETTINGS);
            arguments.add("--edp.engines.embedded=" + (i == 0)); // so nothing runs twice
            Map<String, String> environment = new HashMap<>(datasource);
            environment.put("EDP_OPERATOR_PASSWORD", password);
            replicas.add(jvm.start(arguments, environment,
                    DIR.resolve("fleet-replica-" + (i + 1) + ".log")));
            urls.add("http://127.0.0.1:" + port);
        }
        long deadline = System.nanoTime() + START.toNanos();
        for (int i = 0; i < replicas.size(); i++) {
            while (!ready(i)) {
                if (!replicas.get(i).isAlive()) {
                    throw new IllegalStateException("replica " + (i + 1) + " exited with " + replicas.get(i)
                            .exitValue() + " (its output: " + DIR.resolve("fleet-replica-" + (i + 1) + ".log") + ")");
                }
                awaitOrFail(deadline, "replica " + (i + 1) + " was not ready within " + START.toSeconds() + " s");
            }
            out.printf("fleet: replica %d of %d ready at %s%n", i + 1, replicas.size(), urls.get(i));
        }
    }

    private boolean ready(int replica) throws InterruptedException {
        try {
            return rest(replica).status("/actuator/health/readiness") == 200;
        } catch (IOException e) {
            return false; // not listening yet
        }
    }

    /** Creates the AGENT hosts, eight requests at a time, and issues their tokens; their agents' lines. */
    private List<String> createHosts() throws InterruptedException {
        List<Callable<String>> hosts = new ArrayList<>();
        for (int i = 0; i < options.agents(); i++) {
            int index = i;
            hosts.add(() -> createHost(index));
        }
        var specs = parallel(hosts);
        out.printf("fleet: %d hosts placed AGENT, with their tokens%n", hostNames.size());
        return specs;
    }

    private String createHost(int i) throws IOException, InterruptedException {
        var rest = rest(i % replicas.size());
        var host = createHost(rest, i, "AGENT");
        var token = TOKEN.matcher(rest.send("POST", "/api/v1/hosts/" + host + "/agent-token", null));
        if (!token.find()) {
            throw new IllegalStateException("no token in the answer for host " + hostNames.get(host));
        }
        // replica i mod R first, then the others in turn
        List<String> managers = new ArrayList<>();
        for (int r = 0; r < replicas.size(); r++) {
            managers.add(urls.get((i + r) % replicas.size()));
        }
        return hostNames.get(host) + "\t" + token.group(1) + "\t" + String.join(",", managers);
    }

    /** A host like every host of the fleet (a loopback NIC, EDP_STANDARD, a small flow cache), placed so; its id. */
    private String createHost(BenchRest rest, int i, String placement) throws IOException, InterruptedException {
        var name = String.format(Locale.ROOT, "bench-fleet-%04d", i);
        var host = BenchRest.id(rest.send("POST", "/api/v1/hosts", String.format(Locale.ROOT, """
                {"name": "%s", "managementAddress": "10.250.%d.%d", "placement": "%s",
                 "numaNodes": [{"id": 0, "cpuCores": [0, 1]}], "labels": {"%s": "fleet"}}""",
                name, i / 256, i % 256, placement, ApiInventory.LABEL)));
        synchronized (hostNames) {
            hostNames.put(host, name);
        }
        rest.send("PUT", "/api/v1/hosts/" + host + "/edp", """
                {"settings": {"mode": "EDP_STANDARD", "flowCacheSize": 1024}}""");
        rest.send("POST", "/api/v1/hosts/" + host + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");
        return host;
    }

    private Process startAgents(List<String> specs) throws IOException, InterruptedException {
        var file = DIR.resolve("fleet-agents.tsv");
        Files.deleteIfExists(file);
        // the agents' tokens: for this user only
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(file, specs);
        var log = DIR.resolve("fleet-agents.log");
        // each idle simulated engine holds about 2 MiB of heap (0.4 GiB live for 200; the loopback NIC's traffic
        // sink is made only as traffic reaches it): the rest is room for the agents' garbage between collections
        var heap = "-Xmx" + (256 + 16 * specs.size()) + "m";
        var launcher = ForkedJvm.ofClassPath(List.of(heap)).start(List.of("bench", "fleet-agents",
                file.toString()), Map.of(), log);
        long deadline = System.nanoTime() + START.toNanos();
        while (!Files.readString(log).contains("agents running")) {
            if (!launcher.isAlive()) {
                throw new IllegalStateException("the agent launcher exited with " + launcher.exitValue() + ": "
                        + Files.readString(log).strip());
            }
            awaitOrFail(deadline, "the agent launcher did not start its agents");
        }
        out.printf("fleet: %d agents running in one JVM (pid %d), spread over %d replicas%n", specs.size(),
                launcher.pid(), replicas.size());
        return launcher;
    }

    /** Writes through replica 1 and SIGKILLs the last one at once: seconds until every host runs the write. */
    private double killAReplicaMidChange(String rule) throws IOException, InterruptedException, SQLException {
        var bumped = bumped(rest(0).send("PUT", "/api/v1/firewall/rules/" + rule,
                rule(options.warmUp() + options.changes() + 1)));
        long committed = System.nanoTime();
        replicas.getLast().destroyForcibly();
        out.printf("fleet: replica %d killed (SIGKILL) right after a change through replica 1%n", replicas.size());
        awaitRealized(bumped, CONVERGE, "the change after the replica's kill");
        double seconds = (System.nanoTime() - committed) / 1e9;
        out.printf(Locale.ROOT, "fleet: every agent ran it after %.2f s, through the %d surviving replica(s)%n",
                seconds, replicas.size() - 1);
        return seconds;
    }

    /**
     * The manager's memory and threads with hosts placed EMBEDDED: the agent hosts deleted, E hosts like them
     * but EMBEDDED, created on replica 1 (the one running embedded engines), until realized.
     */
    private PerHost embeddedHosts() throws IOException, InterruptedException, SQLException {
        var rest = rest(0);
        ApiInventory.deleteBenchHosts(rest);
        hostNames.clear();
        var before = Usage.of(replicas.getFirst().toHandle());
        List<Callable<String>> hosts = new ArrayList<>();
        for (int i = 0; i < options.embedded(); i++) {
            int index = i;
            hosts.add(() -> createHost(rest, index, "EMBEDDED"));
        }
        parallel(hosts);
        awaitRealized(desiredGenerations(), CONVERGE, "the embedded hosts");
        var perHost = Usage.of(replicas.getFirst().toHandle()).perHost(before, hostNames.size());
        out.printf(Locale.ROOT, "fleet: %d hosts placed EMBEDDED realized on replica 1%n", hostNames.size());
        return perHost;
    }

    private void print(Result result) {
        out.printf(Locale.ROOT, "%n%-7s %-9s %-8s %9s %9s %9s %24s%n", "agents", "replicas", "changes", "p50_ms",
                "p99_ms", "max_ms", "replica_kill_converge_s");
        out.printf(Locale.ROOT, "%-7d %-9d %-8d %9.0f %9.0f %9.0f %24s%n", result.agents(), result.replicas(),
                result.changes(), result.p50Ms(), result.p99Ms(), result.maxMs(),
                result.replicaKillConvergeS() == null ? "-" : String.format(Locale.ROOT, "%.2f",
                        result.replicaKillConvergeS()));
        out.printf(Locale.ROOT, "warm-up changes before them, not in the percentiles: %s ms%n",
                result.warmUpMs().isEmpty() ? "none" : result.warmUpMs().stream().map(String::valueOf)
                        .collect(Collectors.joining(", ")));
        out.printf(Locale.ROOT, "reports written after the commit (median over the changes): first %.0f ms, median "
                + "%.0f ms, last %.0f ms%n", result.reportsP50().firstMs(), result.reportsP50().medianMs(),
                result.reportsP50().lastMs());
        out.printf(Locale.ROOT, "%n%-10s %6s %14s %9s %13s %15s%n", "placement", "hosts", "manager_rss_mib",
                "threads", "mib_per_host", "threads_per_host");
        printUsage("AGENT", result.agentPlacement());
        if (result.embeddedPlacement() != null) {
            printUsage("EMBEDDED", result.embeddedPlacement());
        }
        out.printf(Locale.ROOT, "agent launcher (%d agents in one JVM): %.0f MiB, %d threads; load average %.2f%n",
                result.agents(), result.agentLauncher().rssBytes() / 1024.0 / 1024.0,
                result.agentLauncher().threads(), result.loadAverage());
    }

    private void printUsage(String placement, PerHost usage) {
        out.printf(Locale.ROOT, "%-10s %6d %14.0f %9d %13.2f %15.2f%n", placement, usage.hosts(),
                usage.rssBytes() / 1024.0 / 1024.0, usage.threads(), usage.rssMibPerHost(), usage.threadsPerHost());
    }

    private Usage managers() {
        return sum(replicas.stream().filter(Process::isAlive).map(replica -> Usage.of(replica.toHandle())).toList());
    }

    private static Usage sum(List<Usage> usages) {
        return usages.stream().reduce(new Usage(0, 0), Usage::plus);
    }

    private BenchRest rest(int replica) {
        return new BenchRest(urls.get(replica), credentials);
    }

    private static String rule(int version) {
        return """
                {"name": "bench-fleet", "priority": 4000, "source": "any", "destination": "any", "protocol": "TCP",
                 "destinationPorts": "%d", "action": "DROP"}""".formatted(10_000 + version);
    }

    /** Deletes the rule an interrupted run left, found by its name (names are unique). */
    private static void deleteLeftoverRule(BenchRest rest) throws IOException, InterruptedException {
        for (int page = 0; ; page++) {
            var body = rest.send("GET", "/api/v1/firewall/rules?size=100&page=" + page, null);
            var leftover = LEFTOVER_RULE.matcher(body);
            if (leftover.find()) {
                rest.send("DELETE", "/api/v1/firewall/rules/" + leftover.group(1), null);
                return;
            }
            if (!RULE_ID.matcher(body).find()) {
                return;
            }
        }
    }

    private static String ruleId(String answer) {
        var id = RULE_ID.matcher(answer);
        if (!id.find()) {
            throw new IllegalStateException("no rule id in " + answer);
        }
        return id.group(1);
    }

    /** The generations a write left the fleet's hosts at; fails unless it bumped every one. */
    private Map<String, Long> bumped(String answer) {
        Map<String, Long> generations = new LinkedHashMap<>();
        for (var host = BUMPED.matcher(answer); host.find(); ) {
            if (hostNames.containsKey(host.group(1))) {
                generations.put(host.group(1), Long.parseLong(host.group(2)));
            }
        }
        if (generations.size() != hostNames.size()) {
            throw new IllegalStateException("a firewall change bumped " + generations.size() + " of the "
                    + hostNames.size() + " hosts");
        }
        return generations;
    }

    /** When the hosts' reports of a change were written, in ms after {@code committedAt} (epoch ms). */
    private Reports reports(Collection<String> hosts, long committedAt) throws SQLException {
        List<Double> after = new ArrayList<>();
        try (var query = database.prepareStatement("SELECT extract(epoch FROM last_success_at) * 1000 "
                + "FROM host_realization WHERE host_id = ANY(?::uuid[]) ORDER BY last_success_at")) {
            query.setArray(1, database.createArrayOf("text", hosts.toArray()));
            try (var rows = query.executeQuery()) {
                while (rows.next()) {
                    after.add(rows.getDouble(1) - committedAt);
                }
            }
        }
        return new Reports(after.getFirst(), after.get(after.size() / 2), after.getLast());
    }

    private static double median(List<Reports> reports, ToDoubleFunction<Reports> figure) {
        return reports.stream().mapToDouble(figure).sorted().toArray()[reports.size() / 2];
    }

    private Map<String, Long> desiredGenerations() throws SQLException {
        Map<String, Long> generations = new LinkedHashMap<>();
        try (var query = database.prepareStatement(
                "SELECT host_id::text, desired_generation FROM host_realization WHERE host_id = ANY(?::uuid[])")) {
            query.setArray(1, database.createArrayOf("text", hostNames.keySet().toArray()));
            try (var rows = query.executeQuery()) {
                while (rows.next()) {
                    generations.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return generations;
    }

    /** Polls the database every 5 ms until every host has realized its generation; the hosts. */
    private Map<String, Long> awaitRealized(Map<String, Long> generations, Duration timeout, String what)
            throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long nextProgress = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        try (var query = database.prepareStatement("""
                SELECT count(*) FROM host_realization r
                  JOIN unnest(?::uuid[], ?::bigint[]) AS w(host_id, generation) ON r.host_id = w.host_id
                 WHERE r.realized_generation >= w.generation""")) {
            query.setArray(1, database.createArrayOf("text", generations.keySet().toArray()));
            query.setArray(2, database.createArrayOf("bigint", generations.values().toArray()));
            while (true) {
                int realized;
                try (var rows = query.executeQuery()) {
                    rows.next();
                    realized = rows.getInt(1);
                }
                if (realized == generations.size()) {
                    return generations;
                }
                if (System.nanoTime() > nextProgress) {
                    out.printf("fleet: %s: %d of %d hosts realized%n", what, realized, generations.size());
                    nextProgress += Duration.ofSeconds(5).toNanos();
                }
                awaitOrFail(deadline, what + ": " + realized + " of " + generations.size()
                        + " hosts realized within " + timeout.toSeconds() + " s" + failures());
            }
        }
    }

    private String failures() throws SQLException {
        try (var query = database.prepareStatement("SELECT count(*), min(failure_reason) FROM host_realization "
                + "WHERE state = 'FAILED' AND host_id = ANY(?::uuid[])")) {
            query.setArray(1, database.createArrayOf("text", hostNames.keySet().toArray()));
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getInt(1) == 0 ? "" : "; " + rows.getInt(1) + " FAILED, e.g. " + rows.getString(2);
            }
        }
    }

    /** Runs the tasks eight at a time; their results in order, or the first failure. */
    private static <T> List<T> parallel(List<Callable<T>> tasks) throws InterruptedException {
        try (var pool = Executors.newFixedThreadPool(8)) {
            List<Future<T>> futures = pool.invokeAll(tasks);
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * Deletes the bench's hosts while their agents still poll (each poll is answered 404, then the agents back off on
     * 401), then stops the agents: stopped first, their polls' 404s found no client to write to, which Tomcat's
     * access log records as 500s.
     */
    private void cleanUp(Process launcher, String rule) {
        int alive = -1;
        for (int i = replicas.size() - 1; i >= 0 && alive < 0; i--) {
            alive = replicas.get(i).isAlive() ? i : -1;
        }
        if (alive >= 0) {
            try {
                ApiInventory.deleteBenchHosts(rest(alive));
                if (rule != null) {
                    rest(alive).send("DELETE", "/api/v1/firewall/rules/" + rule, null);
                }
            } catch (IOException | InterruptedException | RuntimeException e) {
                out.println("fleet: could not delete the bench's hosts and rule: " + e);
            }
        }
        var processes = new ArrayList<Process>(replicas);
        if (launcher != null) {
            processes.add(launcher);
        }
        processes.forEach(Process::destroy);
        for (Process process : processes) {
            try {
                process.onExit().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void awaitOrFail(long deadline, String failure) {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException(failure);
        }
        LockSupport.parkNanos(5_000_000);
    }
}
