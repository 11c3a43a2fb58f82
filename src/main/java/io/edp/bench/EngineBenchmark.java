package io.edp.bench;

import io.edp.bench.EngineCaseRun.Measurement;
import io.edp.bench.EngineCaseRun.Placement;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.numa.CpuAffinity;
import io.edp.engine.numa.CpuSet;
import io.edp.engine.worker.Worker;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bench engine}: every {@link EngineCase} in a JVM of its own, interleaved — round 1 runs each case once,
 * then round 2 runs each again, and so on — so that a disturbance of the shared machine lands on one round of
 * every case rather than on all rounds of one. Each figure is reported as the median of the rounds and their
 * range; {@code target/bench/engine.json} keeps every round with the machine's load through its window.
 */
final class EngineBenchmark {

    /** Threads of a case that want a CPU while it runs: the worker and the traffic generator. */
    static final int BENCH_THREADS = 2;
    /** A round counts as disturbed when other tasks were runnable, on average, half of its window or more. */
    static final double DISTURBED_ABOVE = BENCH_THREADS + 0.5;
    /**
     * A round counts as wire-bound when the worker received fewer frames a poll than this (7/8 of a full burst): it
     * waited for the traffic generator, so its CPU per packet includes polls that found little or nothing.
     */
    static final double WIRE_BOUND_BELOW = NicDriver.MAX_BURST * 7 / 8.0;
    /** Marks the line by which a forked case hands its measurement to the parent. */
    static final String ROUND_PREFIX = "edp-bench-round ";
    private static final Path OUTPUT = Path.of("target", "bench", "engine.json");
    /**
     * Uncommon traps per second of window that make a round a trap storm: compiled code trapping at packet rates
     * (the one found fired 83,000 times a second). A quiet window has a handful from the JVM's other threads (the
     * bench's own sampler recompiling: 6–7 in 2 s).
     */
    static final double TRAP_STORM_PER_SECOND = 100;
    /** Where each forked case logs its JIT traps; a round's log is kept only when it was a trap storm. */
    private static final Path TRAP_LOGS = Path.of("target", "bench", "jit-traps");
    private static final Duration CASE_LIMIT = Duration.ofMinutes(3);
    private static final JsonMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    private static final String USAGE = "usage: bench engine [--quick] [--rounds=N] [--cases=ID,...] "
            + "[--no-pin | --worker-cpu=N --generator-cpu=N]";

    /** How long and how often: {@code --quick} takes fewer, shorter rounds, still interleaved. */
    record Settings(int rounds, long warmUpMillis, long windowMillis, List<EngineCase> cases) {
        static final Settings FULL = new Settings(5, 1_000, 2_000, EngineCase.ALL);
        static final Settings QUICK = new Settings(3, 500, 1_000, EngineCase.ALL);
    }

    /**
     * One round of one case; {@code disturbed} when other work competed with the case's threads, {@code wireBound}
     * when the worker waited for frames ({@link #WIRE_BOUND_BELOW}).
     */
    record Run(int round, String caseId, boolean disturbed, boolean wireBound, Measurement measurement) {
    }

    /** A figure over the rounds. */
    record Spread(double median, double min, double max) {
        static Spread of(double[] values) {
            double[] v = values.clone();
            Arrays.sort(v);
            int n = v.length;
            return new Spread(n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0], v[n - 1]);
        }
    }

    /** {@code idle}: the idle worker's figures, empty when the case does not measure idling. */
    record CaseSummary(String caseId, String mode, int descriptorBytes, int frameBytes, int flows,
            boolean onePair, Map<String, Spread> figures, Map<String, Spread> idle) {
    }

    record Report(String command, String startedAt, int rounds, long warmUpMillis, long windowMillis,
            int benchThreads, List<String> launcher, List<Run> runs, List<CaseSummary> summary) {
    }

    /** A column of the table: one figure of each round. */
    private record Figure(String name, String header, String format, ToDoubleFunction<Measurement> value) {
    }

    private static final List<Figure> FIGURES = List.of(
            new Figure("mpps", "Mpps", "%.2f", Measurement::mpps),
            new Figure("worker_ns_per_packet", "worker ns/pkt", "%.1f", Measurement::workerNsPerPacket),
            new Figure("pipeline_ns_per_packet", "pipeline ns/pkt", "%.1f", Measurement::pipelineNsPerPacket),
            new Figure("worker_mpackets_per_core_second", "worker M pkts/core-s", "%.2f",
                    m -> m.workerPacketsPerCoreSecond() / 1e6),
            new Figure("hit_rate", "hit", "%.3f", Measurement::hitRate),
            new Figure("busy_ns_per_packet", "busy ns/pkt", "%.1f", Measurement::busyNsPerPacket),
            new Figure("packets_per_poll", "pkts/poll", "%.1f", Measurement::packetsPerPoll),
            new Figure("copy_gbps", "copy Gbps", "%.2f", Measurement::copyGbps),
            new Figure("alloc_bytes_per_packet", "alloc B/pkt", "%.2f", Measurement::allocBytesPerPacket),
            new Figure("runnable_tasks", "runnable", "%.1f", Measurement::runnableTasks),
            new Figure("core_round_trip_ns", "round trip ns", "%.0f", Measurement::coreRoundTripNs));

    /** The idle worker's columns, of the cases that measure it ({@link EngineCaseRun.Idle}). */
    private static final List<Figure> IDLE_FIGURES = List.of(
            new Figure("idle_core_percent", "idle % of a core", "%.3f", m -> m.idle().corePercent()),
            new Figure("wake_p50_us", "wake-up p50 µs", "%.1f", m -> m.idle().wake().p50Micros()),
            new Figure("wake_p99_us", "wake-up p99 µs", "%.1f", m -> m.idle().wake().p99Micros()));

    private final Settings settings;
    private final Placement placement;
    private final List<String> programArguments;
    private final PrintStream out;
    private final PrintStream err;

    private EngineBenchmark(Settings settings, Placement placement, List<String> programArguments, PrintStream out,
            PrintStream err) {
        this.settings = settings;
        this.placement = placement;
        this.programArguments = programArguments;
        this.out = out;
        this.err = err;
    }

    /** {@code bench engine} with {@code options}; {@code programArguments} are this JVM's, to fork it again. */
    static int run(List<String> options, List<String> programArguments, PrintStream out, PrintStream err) {
        Settings settings = Settings.FULL;
        String runCase = null;
        JitTrapLog trapLog = null;
        long warmUp = -1;
        long window = -1;
        boolean pin = true;
        CpuSet workerCpu = CpuSet.of();
        CpuSet generatorCpu = CpuSet.of();
        try {
            if (options.contains("--quick")) {
                settings = Settings.QUICK;
            }
            for (String option : options) {
                String[] nameValue = option.split("=", 2);
                String value = nameValue.length == 2 ? nameValue[1] : "";
                switch (nameValue[0]) {
                    case "--quick" -> { }
                    case "--rounds" -> settings = new Settings(positive(value, option), settings.warmUpMillis(),
                            settings.windowMillis(), settings.cases());
                    case "--cases" -> settings = new Settings(settings.rounds(), settings.warmUpMillis(),
                            settings.windowMillis(), Arrays.stream(value.split(",")).map(EngineCase::byId).toList());
                    // a forked case, started by the parent
                    case "--run-case" -> runCase = value;
                    case "--jit-log" -> trapLog = new JitTrapLog(Path.of(value));
                    case "--warm-up-ms" -> warmUp = positive(value, option);
                    case "--window-ms" -> window = positive(value, option);
                    case "--no-pin" -> pin = false;
                    case "--worker-cpu" -> workerCpu = CpuSet.of(cpu(value, option));
                    case "--generator-cpu" -> generatorCpu = CpuSet.of(cpu(value, option));
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (workerCpu.isEmpty() != generatorCpu.isEmpty()) {
                throw new IllegalArgumentException("--worker-cpu and --generator-cpu go together");
            }
            if (runCase != null) {
                EngineCase c = EngineCase.byId(runCase);
                Measurement m = new EngineCaseRun().measure(c, warmUp < 0 ? settings.warmUpMillis() : warmUp,
                        window < 0 ? settings.windowMillis() : window, new Placement(workerCpu, generatorCpu),
                        trapLog);
                out.println(ROUND_PREFIX + JSON.writeValueAsString(m));
                return 0;
            }
        } catch (IllegalArgumentException e) {
            err.println("bench engine: " + e.getMessage() + " (" + USAGE + ")");
            return 2;
        }
        try {
            MachineLoad.read();
            Placement placement = !pin ? Placement.FLOATING
                    : workerCpu.isEmpty() && generatorCpu.isEmpty() ? placement()
                    : new Placement(workerCpu, generatorCpu);
            return new EngineBenchmark(settings, placement, programArguments, out, err)
                    .run(ForkedJvm.ofCurrent(programArguments));
        } catch (IllegalStateException | UncheckedIOException e) {
            err.println("bench engine: " + e.getMessage());
            return 1;
        }
    }

    private static int cpu(String value, String option) {
        if (!value.matches("\\d{1,4}")) {
            throw new IllegalArgumentException("bad option " + option);
        }
        return Integer.parseInt(value);
    }

    /**
     * The worker on the last CPU this process may use, the traffic generator on the one before it; floating when
     * there is only one, or the platform cannot pin threads. {@code bench wire} places its wire and receiver so too.
     */
    static Placement placement() {
        if (!CpuAffinity.isSupported()) {
            return Placement.FLOATING;
        }
        List<Integer> cpus = List.copyOf(CpuAffinity.currentThreadAffinity().cpus());
        if (cpus.size() < BENCH_THREADS) {
            return Placement.FLOATING;
        }
        return new Placement(CpuSet.of(cpus.getLast()), CpuSet.of(cpus.get(cpus.size() - 2)));
    }

    private static int positive(String value, String option) {
        if (!value.matches("\\d{1,9}") || Integer.parseInt(value) == 0) {
            throw new IllegalArgumentException("bad option " + option);
        }
        return Integer.parseInt(value);
    }

    private int run(ForkedJvm jvm) {
        Instant startedAt = Instant.now();
        List<EngineCase> cases = settings.cases();
        out.printf(Locale.ROOT, "bench engine: %d cases x %d interleaved rounds, each case in its own JVM (%s), "
                + "warm-up >= %d ms, window %d ms, %s; load average %.2f%n", cases.size(), settings.rounds(),
                String.join(" ", jvm.launcher()), settings.warmUpMillis(), settings.windowMillis(),
                placement.worker().isEmpty() ? "worker and traffic generator not pinned"
                        : "worker pinned to CPU " + placement.worker() + ", traffic generator to CPU "
                                + placement.generator(), MachineLoad.read().oneMinute());
        List<Run> runs = new ArrayList<>();
        for (int round = 1; round <= settings.rounds(); round++) {
            for (int i = 0; i < cases.size(); i++) {
                EngineCase c = cases.get(i);
                out.printf(Locale.ROOT, "round %d/%d, case %d/%d (%s): %s %d B, flows %s ... ", round,
                        settings.rounds(), i + 1, cases.size(), c.id(), c.mode(), c.frameBytes(), c.flowsLabel());
                out.flush();
                Measurement m;
                try {
                    m = fork(jvm, c, round);
                } catch (RuntimeException e) {
                    out.println("failed");
                    throw e;
                }
                boolean disturbed = m.runnableTasks() > DISTURBED_ABOVE;
                boolean wireBound = m.packetsPerPoll() < WIRE_BOUND_BELOW;
                runs.add(new Run(round, c.id(), disturbed, wireBound, m));
                out.printf(Locale.ROOT, "worker %.1f ns/pkt, pipeline %.1f ns/pkt, %.2f Mpps, runnable %.1f, "
                        + "round trip %.0f ns%s%s%s%s%n", m.workerNsPerPacket(), m.pipelineNsPerPacket(), m.mpps(),
                        m.runnableTasks(), m.coreRoundTripNs(), idleLine(m),
                        disturbed ? "  DISTURBED: other work competed for the CPUs" : "",
                        wireBound ? String.format(Locale.ROOT, "  WIRE-BOUND: %.1f frames a poll",
                                m.packetsPerPoll()) : "",
                        trapStorm(m) ? "  JIT TRAP STORM: " + m.jitTraps() + " traps in the window ("
                                + trapLog(c, round) + ")" : "");
            }
        }
        List<CaseSummary> summary = summarize(runs);
        printTable(summary);
        printIdleTable(summary);
        printComparisons(runs);
        long disturbed = runs.stream().filter(Run::disturbed).count();
        if (disturbed > 0) {
            out.printf(Locale.ROOT, "WARNING: %d of %d runs were disturbed: more than %.1f tasks were runnable on "
                    + "average through their window (this case's own threads: %d), so other work took CPU from "
                    + "them. Their figures are in the ranges; trust the medians only where the ranges are narrow.%n",
                    disturbed, runs.size(), DISTURBED_ABOVE, BENCH_THREADS);
        }
        long wireBound = runs.stream().filter(Run::wireBound).count();
        if (wireBound > 0) {
            out.printf(Locale.ROOT, "WARNING: in %d of %d runs the worker received fewer than %.0f frames a poll: it "
                    + "waited for the traffic generator, so its CPU per packet includes polls that found little or "
                    + "nothing (%s).%n", wireBound, runs.size(), WIRE_BOUND_BELOW, runs.stream()
                    .filter(Run::wireBound).map(r -> r.caseId() + " round " + r.round())
                    .collect(Collectors.joining(", ")));
        }
        long storms = runs.stream().filter(r -> trapStorm(r.measurement())).count();
        if (storms > 0) {
            out.printf(Locale.ROOT, "WARNING: in %d of %d runs compiled code hit uncommon traps at %.0f a second or "
                    + "more during the window, so part of it ran in the interpreter: not the build's steady state "
                    + "(the logs in %s name the methods and bytecodes).%n", storms, runs.size(),
                    TRAP_STORM_PER_SECOND, TRAP_LOGS);
        }
        write(new Report(String.join(" ", programArguments), startedAt.toString(), settings.rounds(),
                settings.warmUpMillis(), settings.windowMillis(), BENCH_THREADS, jvm.launcher(), runs, summary));
        return 0;
    }

    private Measurement fork(ForkedJvm jvm, EngineCase c, int round) {
        JitTrapLog trapLog = new JitTrapLog(trapLog(c, round).toAbsolutePath());
        try {
            Files.createDirectories(TRAP_LOGS);
            Files.deleteIfExists(trapLog.file());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + trapLog.file(), e);
        }
        List<String> arguments = new ArrayList<>(List.of("bench", "engine", "--run-case=" + c.id(),
                "--warm-up-ms=" + settings.warmUpMillis(), "--window-ms=" + settings.windowMillis(),
                "--jit-log=" + trapLog.file()));
        if (!placement.worker().isEmpty()) {
            arguments.add("--worker-cpu=" + placement.worker());
            arguments.add("--generator-cpu=" + placement.generator());
        }
        String output = jvm.withFlag(trapLog.jvmFlag()).run(arguments, CASE_LIMIT);
        for (String line : output.lines().toList()) {
            if (line.startsWith(ROUND_PREFIX)) {
                Measurement m = JSON.readValue(line.substring(ROUND_PREFIX.length()), Measurement.class);
                if (!trapStorm(m)) {
                    trapLog.file().toFile().delete(); // fewer traps than a storm: the JIT at work, nothing to read
                }
                return m;
            }
        }
        throw new IllegalStateException("case " + c.id() + " printed no measurement: " + output.strip());
    }

    private static boolean trapStorm(Measurement m) {
        return m.jitTraps() >= TRAP_STORM_PER_SECOND * m.windowSeconds();
    }

    private static Path trapLog(EngineCase c, int round) {
        return TRAP_LOGS.resolve(c.id() + "-round-" + round + ".log");
    }

    private List<CaseSummary> summarize(List<Run> runs) {
        List<CaseSummary> summary = new ArrayList<>();
        for (EngineCase c : settings.cases()) {
            Map<String, Spread> figures = new LinkedHashMap<>();
            for (Figure f : FIGURES) {
                figures.put(f.name(), Spread.of(perRound(runs, c.id(), f.value())));
            }
            Measurement first = runs.stream().filter(r -> r.caseId().equals(c.id())).findFirst().orElseThrow()
                    .measurement();
            Map<String, Spread> idle = new LinkedHashMap<>();
            if (first.idle() != null) {
                for (Figure f : first.idle().wake() == null ? IDLE_FIGURES.subList(0, 1) : IDLE_FIGURES) {
                    idle.put(f.name(), Spread.of(perRound(runs, c.id(), f.value())));
                }
            }
            summary.add(new CaseSummary(c.id(), c.mode().name(), first.descriptorBytes(), c.frameBytes(), c.flows(),
                    c.onePair(), figures, idle));
        }
        return summary;
    }

    /** The figure of case {@code id} in each round, in round order; empty when the case did not run. */
    private static double[] perRound(List<Run> runs, String id, ToDoubleFunction<Measurement> figure) {
        return runs.stream().filter(r -> r.caseId().equals(id)).mapToDouble(r -> figure.applyAsDouble(r.measurement()))
                .toArray();
    }

    private void printTable(List<CaseSummary> summary) {
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("mode", "descriptor B", "frame B", "flows"));
        FIGURES.forEach(f -> header.add(f.header()));
        rows.add(header.toArray(String[]::new));
        for (CaseSummary s : summary) {
            List<String> row = new ArrayList<>(List.of(s.mode(), Integer.toString(s.descriptorBytes()),
                    Integer.toString(s.frameBytes()), EngineCase.byId(s.caseId()).flowsLabel()));
            for (Figure f : FIGURES) {
                Spread v = s.figures().get(f.name());
                row.add(String.format(Locale.ROOT, f.format() + " [" + f.format() + "–" + f.format() + "]",
                        v.median(), v.min(), v.max()));
            }
            rows.add(row.toArray(String[]::new));
        }
        int[] widths = new int[header.size()];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        out.println();
        out.printf("median [min–max] of %d rounds; columns:%n", settings.rounds());
        out.println("""
                  worker ns/pkt, worker M pkts/core-s: the worker thread's CPU time per packet received (idle
                    polling included: a worker that finds its queue empty, pkts/poll well below 32, pays for it;
                    below 28 the run is marked WIRE-BOUND: the worker waited for the traffic generator)
                  pipeline ns/pkt: worker plus traffic-generator thread CPU per packet: building each frame and the
                    NIC model's copy of it into a posted buffer (its spinning while none is posted included)
                  busy ns/pkt: wall time of the worker's non-empty bursts per packet (inflated when it is
                    descheduled inside a burst); hit: fast-path hits over packets that met the flow cache
                  copy Gbps: frame bytes the NIC model copied into buffers per wall second (the only bytes moved)
                  runnable: tasks runnable on the machine, mean through the window; the case's own are at most 2
                  round trip: a cache line from the worker's CPU to the generator's and back, ns, just before the
                    case (-1: not pinned apart): the host's cross-core latency, part of what every frame costs""");
        for (int r = 0; r < rows.size(); r++) {
            StringBuilder line = new StringBuilder("|");
            for (int i = 0; i < widths.length; i++) {
                String cell = rows.get(r)[i];
                line.append(' ').append(i < 4 ? pad(cell, widths[i], false) : pad(cell, widths[i], true)).append(" |");
            }
            out.println(line);
            if (r == 0) {
                StringBuilder rule = new StringBuilder("|");
                for (int i = 0; i < widths.length; i++) {
                    rule.append(i < 4 ? "---|" : "---:|");
                }
                out.println(rule);
            }
        }
    }

    private static String idleLine(Measurement m) {
        EngineCaseRun.Idle idle = m.idle();
        if (idle == null) {
            return "";
        }
        return String.format(Locale.ROOT, "; idle %.3f %% of a core%s", idle.corePercent(), idle.wake() == null
                ? " (busy-polls)" : String.format(Locale.ROOT, ", wake-up p50 %.1f µs p99 %.1f µs (%d probes)",
                        idle.wake().p50Micros(), idle.wake().p99Micros(), idle.wake().samples()));
    }

    /** The idle worker: what it costs once the traffic stopped, and how fast a frame wakes it. */
    private void printIdleTable(List<CaseSummary> summary) {
        List<CaseSummary> measured = summary.stream().filter(s -> !s.idle().isEmpty()).toList();
        if (measured.isEmpty()) {
            return;
        }
        out.println();
        out.printf(Locale.ROOT, """
                the idle worker, median [min–max] of %d rounds, after the traffic stopped:
                  idle %% of a core: the worker thread's CPU time over a %d ms window, once a worker that sleeps
                    reached its longest sleep (%d ms) after a top-flows pass over the counts the traffic left
                  wake-up p50/p99: %d single frames, each sent once the worker slept >= %d ms; from the loopback
                    NIC's ring of the doorbell (the frame on the RX ring) to the worker running again;
                    EDP_DEDICATED busy-polls, never sleeps%n""",
                settings.rounds(), settings.windowMillis(), Worker.MAX_SLEEP.toMillis(), EngineCaseRun.WAKE_PROBES,
                EngineCaseRun.PROBE_SLEEP_NANOS / 1_000_000);
        out.println("| mode | idle % of a core | wake-up p50 µs | wake-up p99 µs |");
        out.println("|---|---:|---:|---:|");
        for (CaseSummary s : measured) {
            StringBuilder line = new StringBuilder("| " + s.mode() + " |");
            for (Figure f : IDLE_FIGURES) {
                Spread v = s.idle().get(f.name());
                line.append(' ').append(v == null ? "busy-polls" : String.format(Locale.ROOT,
                        f.format() + " [" + f.format() + "–" + f.format() + "]", v.median(), v.min(), v.max()))
                        .append(" |");
            }
            out.println(line);
        }
    }

    private static String pad(String cell, int width, boolean right) {
        String space = " ".repeat(width - cell.length());
        return right ? space + cell : cell + space;
    }

    /** Ratios and differences taken within each round (whose cases ran minutes apart at most), then summarized. */
    private void printComparisons(List<Run> runs) {
        out.println();
        ToDoubleFunction<Measurement> perCoreSecond = Measurement::workerPacketsPerCoreSecond;
        ToDoubleFunction<Measurement> workerNs = Measurement::workerNsPerPacket;
        for (String size : List.of("64", "1518")) {
            compare(runs, "EDP_STANDARD / LEGACY worker packets per core-second at " + size + " B: %sx",
                    "standard-" + size, "legacy-" + size, perCoreSecond, true);
        }
        compare(runs, "the descriptor size's share, LEGACY 64 B on 256- minus on 128-byte descriptors: %s ns of "
                + "worker CPU per packet", "legacy-64", "legacy-desc128-64", workerNs, false);
        compare(runs, "the flow cache's share, LEGACY minus EDP_STANDARD, both on 128-byte descriptors, 64 B: %s ns "
                + "of worker CPU per packet", "legacy-desc128-64", "standard-64", workerNs, false);
        compare(runs, "the live verifier's cost, EDP_STANDARD 64 B checking one hit in 1,000 minus not checking: %s ns "
                + "of worker CPU per packet", "standard-64-verified", "standard-64", workerNs, false);
        compare(runs, "EDP_STANDARD 64 B, 125,000 flows between one pair of addresses minus spread over 1,000 "
                + "networks: %s ns of worker CPU per packet", "standard-64-pair", "standard-64", workerNs, false);
        double[] pairHits = perRound(runs, "standard-64-pair", Measurement::hitRate);
        if (pairHits.length > 0) {
            out.printf(Locale.ROOT, "hit rate of 125,000 flows between one pair of addresses: %s%n",
                    spread("%.3f", pairHits));
        }
        for (String rules : List.of("1000", "10000")) {
            compare(runs, "the slow path at " + rules + " rules / at 10 rules (LEGACY 64 B, every packet meets the "
                    + "rules): %sx worker CPU per packet", "slowpath-" + rules, "slowpath-10", workerNs, true);
        }
        double[] floor = perRound(runs, "floor", workerNs);
        if (floor.length > 0) {
            out.printf(Locale.ROOT, "fast-path floor (EDP_STANDARD, 64 B, one flow): %s ns of worker CPU per packet%n",
                    spread("%.1f", floor));
        }
    }

    /** Prints {@code text} with the per-round ratio (or difference) of case {@code a} to {@code b}, if both ran. */
    private void compare(List<Run> runs, String text, String a, String b, ToDoubleFunction<Measurement> figure,
            boolean ratio) {
        double[] x = perRound(runs, a, figure);
        double[] y = perRound(runs, b, figure);
        if (x.length == 0 || y.length == 0) {
            return;
        }
        double[] v = new double[x.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = ratio ? x[i] / y[i] : x[i] - y[i];
        }
        out.printf(Locale.ROOT, text + " (per round, median [min–max])%n", spread(ratio ? "%.2f" : "%.1f", v));
    }

    private static String spread(String format, double[] values) {
        Spread s = Spread.of(values);
        return String.format(Locale.ROOT, format + " [" + format + "–" + format + "]", s.median(), s.min(), s.max());
    }

    private void write(Report report) {
        try {
            Files.createDirectories(OUTPUT.getParent());
            Files.writeString(OUTPUT, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
            out.println("wrote " + OUTPUT);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + OUTPUT, e);
        }
    }
}
