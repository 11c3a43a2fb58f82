package io.edp.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.edp.agent.AgentLauncher;

/**
 * {@code edp bench <name> [options]}: benchmarks that run without Spring, but for bench api, which starts the manager
 * unless it reads one already running. Returns the process exit status.
 */
public final class BenchCommand {

    private BenchCommand() {
    }

    /** How often bench fleet's simulated agents send statistics: a real agent's default. */
    private static final Duration STATS_INTERVAL = Duration.ofSeconds(10);
    private static final String USAGE = "usage: bench engine [--quick] [--rounds=N] [--cases=ID,...] [--no-pin]"
            + " | bench tlb [--hot-pps=N] [--cold-pps=N]"
            + " | bench afpacket [--seconds N] [--mode MODE] [--drivers-only] [--peer ovs [--rounds N]]"
            + " [--frames 64,1518] [--flows 1,10000] | bench push | bench rules [--rounds=N] [--window-ms=N]"
            + " | bench api [--url=URL [--host=ID]] [--hosts=N] [--seconds=N] [--warm-up=N] [--concurrency=N]"
            + " [--load=wrk|builtin|wrk,builtin]"
            + " | bench telemetry | bench fleet [--agents N] [--replicas R] [--changes C] [--warm-up W] [--embedded E]"
            + " | bench wire [--rounds=N] [--window-ms=N]";

    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    /** As {@link #run(String[])}, printing results to {@code out} and why a bench cannot run to {@code err}. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        String name = args.length == 0 ? "" : args[0];
        List<String> options = List.of(args).subList(Math.min(1, args.length), args.length);
        return switch (name) {
            case "engine" -> EngineBenchmark.run(options, programArguments(args), out, err);
            case "tlb" -> tlb(options, out);
            case "afpacket" -> AfPacketBench.run(options.toArray(String[]::new), out, err);
            case "rules" -> RuleLookupBenchmark.run(options, out, err);
            case "api" -> ApiBenchmark.run(options, System.getenv("EDP_AUTH"), out, err);
            case "telemetry" -> TelemetryBenchmark.run(out, err);
            case "fleet" -> FleetBenchmark.run(options, System.getenv(), out, err);
            case "wire" -> WireBenchmark.run(options, out, err);
            // bench fleet's agent launcher, in a JVM of its own: the file of its agents' hosts, tokens and managers
            case "fleet-agents" -> options.size() == 1
                    ? AgentLauncher.run(Path.of(options.getFirst()), STATS_INTERVAL, out, err) : usage(out);
            default -> usage(out);
        };
    }

    private static int usage(PrintStream out) {
        out.println(USAGE);
        return 2;
    }

    /** The program arguments this JVM was started with, which a benchmark that forks passes on. */
    private static List<String> programArguments(String[] args) {
        List<String> all = new java.util.ArrayList<>(List.of("bench"));
        all.addAll(List.of(args));
        return all;
    }

    private static int tlb(List<String> options, PrintStream out) {
        TlbBenchmark.Settings settings = TlbBenchmark.Settings.defaults();
        for (String option : options) {
            String[] nameValue = option.split("=", 2);
            long value = nameValue.length == 2 && nameValue[1].matches("\\d+") ? Long.parseLong(nameValue[1]) : -1;
            switch (nameValue[0]) {
                case "--hot-pps" -> settings = new TlbBenchmark.Settings(value, settings.coldPacketsPerSecond(),
                        settings.before(), settings.after(), settings.tlb());
                case "--cold-pps" -> settings = new TlbBenchmark.Settings(settings.hotPacketsPerSecond(), value,
                        settings.before(), settings.after(), settings.tlb());
                default -> value = -1;
            }
            if (value < 0) {
                out.println("bench tlb: bad option " + option + " (usage: bench tlb [--hot-pps=N] [--cold-pps=N])");
                return 2;
            }
        }
        return new TlbBenchmark(settings, out).run();
    }
}
