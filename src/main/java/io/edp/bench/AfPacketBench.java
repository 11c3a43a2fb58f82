package io.edp.bench;

import io.edp.engine.Mode;
import io.edp.engine.nic.NicSetupException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bench afpacket}: trafgen in a generator namespace → veth → a forwarder on two AF_PACKET ports in the
 * root namespace → veth → a sink namespace. For 64 B and 1518 B frames with 1 and 10,000 flows it offers as
 * much as trafgen can send and measures what the sink received. Offered = what reached the ingress veth (plus
 * what its peer had to drop), forwarded = what the egress veth handed to the sink's, loss = frames dropped in the
 * window by whoever dropped them (the generator's veth, the kernel RX ring, the TX ring, the engine, the egress
 * veth) over offered, forwarder CPU = the forwarder's process's CPU time over wall time (100 % = one core).
 * trafgen's one sender pins itself to CPU 0; the forwarder runs on CPU 1 when there is one.
 *
 * <p>With {@code --peer ovs} every case runs twice in a row, the engine's side then Open vSwitch's
 * ({@link OvsForwarder}), for each {@link Pipeline}; 64 B cases of the engine's work are repeated at the rate
 * Open vSwitch forwarded, offered to both. Writes {@code target/bench/afpacket.json}.
 */
public final class AfPacketBench {

    /** One forwarder in one measured case, as written to the JSON file. */
    public record Result(String forwarder, int frame_bytes, int flows, String offered_rate, double offered_mpps,
            double forwarded_mpps, double loss_pct, double forwarder_cpu_pct, double forwarder_wait_pct,
            double cpu_ns_per_packet) {
    }

    /**
     * Both forwarders in one case of {@code --peer ovs}, measured one after the other; the ratios are the engine's
     * figure over Open vSwitch's, and {@code load} the 1-minute load average after the second window.
     */
    public record Comparison(int round, String pipeline, int frame_bytes, int flows, String offered_rate,
            Result edp, Result ovs, double forwarded_ratio, double cpu_per_packet_ratio, double load) {
    }

    /** A case's ratios over the rounds: median [min–max]. */
    public record Summary(String pipeline, int frame_bytes, int flows, String offered_rate, int rounds,
            double forwarded_ratio, double forwarded_ratio_min, double forwarded_ratio_max,
            double cpu_per_packet_ratio, double cpu_per_packet_ratio_min, double cpu_per_packet_ratio_max) {
    }

    /** What {@code --peer ovs} writes: the command, the machine's load before and after, every round, the medians. */
    public record PeerReport(String command, int forwarder_cpu, double load_before, double load_after,
            List<Comparison> comparisons, List<Summary> summary) {
    }

    /** What moves frames from the ingress interface to the egress one while a case runs. */
    public interface Forwarder extends AutoCloseable {

        /**
         * Frames lost so far where the forwarder can see it (the kernel's RX ring overflowing because the forwarder
         * did not keep up, a full TX ring, the engine's drops); empty when it cannot see them, and then whatever
         * offered frame it did not forward counts as lost.
         */
        OptionalLong dropped();

        /** The process whose threads' CPU time the forwarding costs; by default this JVM. */
        default long pid() {
            return ProcessHandle.current().pid();
        }

        @Override
        void close();
    }

    /** Opens a forwarder between two interfaces of the root namespace. */
    @FunctionalInterface
    public interface ForwarderFactory {
        Forwarder open(String ingress, String egress);
    }

    /** A forwarder to measure and its name in the output. */
    record Side(String name, ForwarderFactory factory) {
    }

    /** What the bench runs: namespaces and veths (ip, sysctl), the generator (trafgen in a session of its own). */
    private static final String[] TOOLS = {"ip", "sysctl", "trafgen", "setsid", "kill"};
    private static final String INSTALL = "iproute2 netsniff-ng procps util-linux";
    private static final String USAGE = "usage: bench afpacket [--seconds N] [--mode MODE] [--drivers-only]"
            + " [--peer ovs [--rounds N]] [--frames 64,1518] [--flows 1,10000]";
    private static final Path OUTPUT = Path.of("target", "bench", "afpacket.json");
    private static final String MAX = "max";
    /**
     * Column heads of {@link #figures}: Mpps, loss %, CPU % and run-queue wait % (100 = one core), CPU ns per
     * forwarded packet.
     */
    private static final String FIGURES = "offered forward  loss %  CPU %  wait %  ns/pkt";
    /** trafgen with {@code --cpus 1} pins its sender to CPU 0; the forwarder gets the other. */
    private static final int FORWARDER_CPU = 1;

    private final long measureNanos;
    private final long warmupNanos;
    private final List<Integer> frames;
    private final List<Integer> flows;
    private final String namespacePrefix;
    private final PrintStream out;

    AfPacketBench(long measureSeconds, List<Integer> frames, List<Integer> flows, String namespacePrefix,
            PrintStream out) {
        this.out = out;
        this.namespacePrefix = namespacePrefix;
        this.measureNanos = TimeUnit.SECONDS.toNanos(measureSeconds);
        this.warmupNanos = TimeUnit.SECONDS.toNanos(1);
        this.frames = frames;
        this.flows = flows;
    }

    /**
     * {@code bench afpacket [--seconds N] [--mode EDP_STANDARD|EDP_DEDICATED|LEGACY] [--drivers-only]
     * [--peer ovs [--rounds N]] [--frames 64,1518] [--flows 1,10000]}: prints a table and writes the JSON file;
     * returns the exit status.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, "edp");
    }

    /** As {@link #run(String[], PrintStream, PrintStream)}, its namespaces named {@code <namespacePrefix>-…}. */
    static int run(String[] args, PrintStream out, PrintStream err, String namespacePrefix) {
        long seconds = 5;
        int rounds = 1;
        Mode mode = Mode.EDP_STANDARD;
        boolean driversOnly = false;
        boolean ovs = false;
        List<Integer> frames = List.of(64, 1518);
        List<Integer> flows = List.of(1, 10_000);
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--seconds" -> seconds = positive(args[++i], "--seconds");
                    case "--rounds" -> rounds = (int) positive(args[++i], "--rounds");
                    case "--mode" -> mode = Mode.parse(args[++i]);
                    case "--drivers-only" -> driversOnly = true;
                    case "--peer" -> ovs = peer(args[++i]);
                    case "--frames" -> frames = numbers(args[++i]);
                    case "--flows" -> flows = numbers(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (ovs && driversOnly) {
                throw new IllegalArgumentException("--peer ovs compares both pipelines itself, without --drivers-only");
            }
            if (!ovs && rounds > 1) {
                throw new IllegalArgumentException("--rounds needs --peer ovs");
            }
            // sizes and flow counts trafgen cannot send fail here, before any namespace is made
            frames.forEach(frameBytes -> new TrafgenProfile(1, frameBytes, 0));
            flows.forEach(count -> new TrafgenProfile(count, 64, 0));
        } catch (RuntimeException e) {
            err.println("bench afpacket: " + e.getMessage() + " (" + USAGE + ")");
            return 2;
        }
        List<String> needed = new ArrayList<>(List.of(TOOLS));
        if (ovs) {
            needed.addAll(List.of(OvsForwarder.TOOLS));
        }
        List<String> missing = HostCommand.missing(needed.toArray(String[]::new));
        if (!missing.isEmpty()) {
            err.println("bench afpacket: not found on PATH: " + String.join(", ", missing)
                    + " (Debian: sudo apt-get install -y " + INSTALL + (ovs ? " openvswitch-switch" : "") + ")");
            return 1;
        }
        int cpu = Runtime.getRuntime().availableProcessors() > FORWARDER_CPU ? FORWARDER_CPU : -1;
        Mode engineMode = mode;
        Side engine = new Side("engine " + mode, (in, eg) -> new EngineForwarder(in, eg, engineMode, cpu, out));
        Side drivers = new Side("drivers", (in, eg) -> new DriverLoopForwarder(in, eg, cpu));
        out.println("bench afpacket: " + (ovs ? "engine in " + mode + " and Open vSwitch, " + rounds + " round(s)"
                : driversOnly ? "AF_PACKET drivers alone" : "engine in " + mode) + ", " + seconds + " s per case, "
                + (cpu < 0 ? "forwarder not pinned (one CPU)" : "forwarder on CPU " + cpu) + ", load average "
                + MachineLoad.read().oneMinute());
        try {
            AfPacketBench bench = new AfPacketBench(seconds, frames, flows, namespacePrefix, out);
            if (ovs) {
                bench.compare(String.join(" ", args), rounds, drivers, engine, cpu);
            } else {
                bench.run(driversOnly ? drivers : engine);
            }
            return 0;
        } catch (NicSetupException | IllegalStateException | UncheckedIOException e) {
            err.println("bench afpacket: " + e.getMessage());
            return 1;
        }
    }

    /** Every case at the highest rate trafgen reaches, with one forwarder. */
    List<Result> run(Side side) {
        List<Result> results = new ArrayList<>();
        try (VethLab lab = new VethLab(namespacePrefix)) {
            VethLab.ForwardingPath path = lab.forwardingPath();
            out.printf("%-6s %-7s %-8s | %s%n", "frame", "flows", "offered", FIGURES);
            for (int frameBytes : frames) {
                for (int count : flows) {
                    Result result = measure(lab, path, side, new TrafgenProfile(count, frameBytes, 0), null);
                    out.printf(Locale.ROOT, "%-6d %-7d %-8s | %s%n", result.frame_bytes(), result.flows(),
                            result.offered_rate(), figures(result));
                    results.add(result);
                }
            }
        }
        write(results);
        return results;
    }

    /**
     * {@code --peer ovs}: for each round, pipeline and case the engine's side then Open vSwitch on the same veths
     * with the same trafgen profile and window; 64 B cases of the engine's work again at the rate Open vSwitch
     * forwarded.
     */
    PeerReport compare(String command, int rounds, Side drivers, Side engine, int cpu) {
        double loadBefore = MachineLoad.read().oneMinute();
        List<Comparison> comparisons = new ArrayList<>();
        try (VethLab lab = new VethLab(namespacePrefix)) {
            VethLab.ForwardingPath path = lab.forwardingPath();
            out.printf("%-5s %-11s %-5s %-6s %-10s | EDP %s | OVS %s | %6s %8s %5s%n", "round", "pipeline", "frame",
                    "flows", "offered", FIGURES, FIGURES, "fwd ×", "ns/pkt ×", "load");
            for (int round = 1; round <= rounds; round++) {
                for (Pipeline pipeline : Pipeline.values()) {
                    Side edp = pipeline == Pipeline.PLAIN ? drivers : engine;
                    Side ovs = new Side("ovs", (in, eg) -> new OvsForwarder(in, eg, pipeline, cpu));
                    for (int frameBytes : frames) {
                        for (int count : flows) {
                            TrafgenProfile profile = new TrafgenProfile(count, frameBytes, 0);
                            Comparison atMax = pair(lab, path, round, pipeline, edp, ovs, profile, null);
                            comparisons.add(atMax);
                            if (pipeline == Pipeline.ENGINE_WORK && frameBytes == 64) {
                                long rate = Math.max(1000, Math.round(atMax.ovs().forwarded_mpps() * 1000) * 1000);
                                comparisons.add(pair(lab, path, round, pipeline, edp, ovs, profile, rate + "pps"));
                            }
                        }
                    }
                }
            }
        }
        PeerReport report = new PeerReport("bench afpacket " + command, cpu, loadBefore,
                MachineLoad.read().oneMinute(), comparisons, summary(comparisons));
        out.println("median [min–max] over " + rounds + " round(s), EDP / OVS:");
        for (Summary s : report.summary()) {
            out.printf(Locale.ROOT, "  %-11s %4d B %6d flows %-10s forwarded %.2f× [%.2f–%.2f],"
                            + " CPU per packet %.2f× [%.2f–%.2f]%n",
                    s.pipeline(), s.frame_bytes(), s.flows(), s.offered_rate(), s.forwarded_ratio(),
                    s.forwarded_ratio_min(), s.forwarded_ratio_max(), s.cpu_per_packet_ratio(),
                    s.cpu_per_packet_ratio_min(), s.cpu_per_packet_ratio_max());
        }
        out.println("load average " + loadBefore + " before, " + report.load_after() + " after");
        write(report);
        return report;
    }

    private Comparison pair(VethLab lab, VethLab.ForwardingPath path, int round, Pipeline pipeline, Side edp, Side ovs,
            TrafgenProfile profile, String rate) {
        Result a = measure(lab, path, edp, profile, rate);
        Result b = measure(lab, path, ovs, profile, rate);
        Comparison c = new Comparison(round, pipeline.toString(), profile.frameBytes(), profile.flows(),
                rate == null ? MAX : rate, a, b, ratio(a.forwarded_mpps(), b.forwarded_mpps()),
                ratio(a.cpu_ns_per_packet(), b.cpu_ns_per_packet()), MachineLoad.read().oneMinute());
        out.printf(Locale.ROOT, "%-5d %-11s %-5d %-6d %-10s |     %s |     %s | %6.2f %8.2f %5.1f%n", round,
                c.pipeline(), c.frame_bytes(), c.flows(), c.offered_rate(), figures(a), figures(b),
                c.forwarded_ratio(), c.cpu_per_packet_ratio(), c.load());
        return c;
    }

    /** Each case's ratios over the rounds; the cases at Open vSwitch's rate are one case whatever the rate was. */
    private static List<Summary> summary(List<Comparison> comparisons) {
        Map<String, List<Comparison>> byCase = new LinkedHashMap<>();
        for (Comparison c : comparisons) {
            byCase.computeIfAbsent(c.pipeline() + "/" + c.frame_bytes() + "/" + c.flows() + "/" + offeredRate(c),
                    key -> new ArrayList<>()).add(c);
        }
        List<Summary> summary = new ArrayList<>();
        for (List<Comparison> rounds : byCase.values()) {
            Comparison first = rounds.getFirst();
            double[] forwarded = rounds.stream().mapToDouble(Comparison::forwarded_ratio).sorted().toArray();
            double[] cpu = rounds.stream().mapToDouble(Comparison::cpu_per_packet_ratio).sorted().toArray();
            summary.add(new Summary(first.pipeline(), first.frame_bytes(), first.flows(),
                    offeredRate(first), rounds.size(),
                    median(forwarded), forwarded[0], forwarded[forwarded.length - 1],
                    median(cpu), cpu[0], cpu[cpu.length - 1]));
        }
        return summary;
    }

    /** One forwarder's figures in a table row, under {@link #FIGURES}. */
    private static String figures(Result r) {
        return String.format(Locale.ROOT, "%7.3f %7.3f %7.2f %6.1f %6.1f %7.0f", r.offered_mpps(), r.forwarded_mpps(),
                r.loss_pct(), r.forwarder_cpu_pct(), r.forwarder_wait_pct(), r.cpu_ns_per_packet());
    }

    private static String offeredRate(Comparison c) {
        return c.offered_rate().equals(MAX) ? MAX : "OVS's rate";
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return round(n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2);
    }

    private static double ratio(double edp, double ovs) {
        return round(edp / ovs);
    }

    private static long positive(String value, String option) {
        long n = Long.parseLong(value);
        if (n < 1) {
            throw new IllegalArgumentException(option + " must be at least 1: " + value);
        }
        return n;
    }

    private static boolean peer(String name) {
        if (!name.equals("ovs")) {
            throw new IllegalArgumentException("--peer: only ovs is known, not " + name);
        }
        return true;
    }

    private static List<Integer> numbers(String list) {
        return Arrays.stream(list.split(",")).map(Integer::valueOf).toList();
    }

    private Result measure(VethLab lab, VethLab.ForwardingPath path, Side side, TrafgenProfile profile, String rate) {
        try (Forwarder forwarder = side.factory().open(path.ingress(), path.egress())) {
            try (VethLab.RunningTrafgen generator =
                    lab.trafgenUntilStopped(path.generator(), VethLab.GENERATOR_DEVICE, profile, rate)) {
                pause(warmupNanos);
                generator.requireRunning();
                // The window is read from the root-namespace veth ends (a file read, microseconds apart): ingress
                // rx_packets is what the generator's veth delivered, egress tx_packets exactly what the sink's
                // veth received. Reading the namespaced ends needs a process per read, whose delay under load
                // skewed the two windows by tens of milliseconds. Frames the generator's veth dropped before
                // the forwarder's host took them (its backlog full) count as offered and lost.
                long refused0 = lab.counter(path.generator(), VethLab.GENERATOR_DEVICE, "tx_dropped");
                long offered0 = lab.counter(null, path.ingress(), "rx_packets");
                long forwarded0 = lab.counter(null, path.egress(), "tx_packets");
                OptionalLong dropped0 = forwarder.dropped();
                long egressDropped0 = lab.counter(null, path.egress(), "tx_dropped");
                ProcessTimes times0 = ProcessTimes.of(forwarder.pid());
                long start = System.nanoTime();
                pause(measureNanos);
                long received = lab.counter(null, path.ingress(), "rx_packets") - offered0;
                long forwarded = lab.counter(null, path.egress(), "tx_packets") - forwarded0;
                OptionalLong dropped1 = forwarder.dropped();
                long egressDropped = lab.counter(null, path.egress(), "tx_dropped") - egressDropped0;
                ProcessTimes.Window times = ProcessTimes.of(forwarder.pid()).since(times0);
                long elapsed = System.nanoTime() - start;
                long refused = lab.counter(path.generator(), VethLab.GENERATOR_DEVICE, "tx_dropped") - refused0;
                long offered = received + refused;
                generator.requireRunning();
                if (offered == 0) {
                    throw new IllegalStateException("no frame reached " + path.ingress() + " in the window: trafgen "
                            + "runs but does not send");
                }
                if (forwarded == 0) {
                    throw new IllegalStateException(side.name() + " forwarded no frame of the " + offered
                            + " offered in the window");
                }
                long lost = dropped1.isPresent()
                        ? refused + dropped1.getAsLong() - dropped0.getAsLong() + egressDropped
                        : Math.max(0, offered - forwarded);
                if (dropped1.isPresent()) {
                    // what is neither forwarded nor counted lost was in flight (in the RX ring) at an end of the window
                    out.println("       " + side.name() + ": lost " + lost + " (generator veth refused " + refused
                            + "), in flight at the window's ends " + (offered - forwarded - lost));
                }
                return new Result(side.name(), profile.frameBytes(), profile.flows(), rate == null ? MAX : rate,
                        round(offered * 1e3 / elapsed), round(forwarded * 1e3 / elapsed),
                        round(100.0 * lost / offered), round(100.0 * times.cpuNanos() / elapsed),
                        round(100.0 * times.waitNanos() / elapsed), round((double) times.cpuNanos() / forwarded));
            }
        }
    }

    private void write(Object results) {
        try {
            Files.createDirectories(OUTPUT.getParent());
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
                    .writeValue(OUTPUT.toFile(), results);
            out.println("wrote " + OUTPUT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    private static void pause(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
