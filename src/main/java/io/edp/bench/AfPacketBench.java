package io.edp.bench;

import com.sun.management.OperatingSystemMXBean;
import io.edp.engine.Mode;
import io.edp.engine.nic.NicSetupException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bench afpacket}: trafgen in a generator namespace → veth → the engine on two AF_PACKET ports in the
 * root namespace → veth → a sink namespace. For 64 B and 1518 B frames with 1 and 10,000 flows it offers as
 * much as trafgen can send, then (64 B) a fixed 0.3 Mpps, OVS's userspace rate on this machine, and measures
 * what the sink received. Offered = what reached the ingress veth (plus what its peer had to drop), forwarded =
 * what the egress veth handed to the sink's, loss = frames dropped in the window by whoever dropped them (the
 * generator's veth, the kernel RX ring, the TX ring, the engine, the egress veth) over offered, engine CPU = this
 * JVM's CPU time over wall time (100 % = one core). Writes {@code target/bench/afpacket.json}.
 */
public final class AfPacketBench {

    /** One measured case, as written to the JSON file. */
    public record Result(int frame_bytes, int flows, String offered_rate, double offered_mpps, double forwarded_mpps,
            double loss_pct, double engine_cpu_pct) {
    }

    /** What moves frames from the engine-facing ingress interface to the egress one while a case runs. */
    public interface Forwarder extends AutoCloseable {

        /**
         * Frames lost so far where the forwarder can see it: the kernel's RX ring overflowing (the forwarder did
         * not keep up), a full TX ring, the engine's drops.
         */
        long dropped();

        @Override
        void close();
    }

    /** Opens a forwarder between two interfaces of the root namespace. */
    @FunctionalInterface
    public interface ForwarderFactory {
        Forwarder open(String ingress, String egress);
    }

    private static final String OVS_RATE = "300000pps";
    /** What the bench runs: namespaces and veths (ip, sysctl), the generator (trafgen in a session of its own). */
    private static final String[] TOOLS = {"ip", "sysctl", "trafgen", "setsid", "kill"};
    private static final Path OUTPUT = Path.of("target", "bench", "afpacket.json");

    private final ForwarderFactory forwarders;
    private final long measureNanos;
    private final long warmupNanos;
    private final PrintStream out;

    public AfPacketBench(ForwarderFactory forwarders, long measureSeconds, PrintStream out) {
        this.forwarders = forwarders;
        this.out = out;
        this.measureNanos = TimeUnit.SECONDS.toNanos(measureSeconds);
        this.warmupNanos = TimeUnit.SECONDS.toNanos(1);
    }

    /**
     * {@code bench afpacket [--seconds N] [--mode EDP_STANDARD|EDP_DEDICATED|LEGACY] [--drivers-only]}: prints a
     * table and writes the JSON file; returns the exit status.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        long seconds = 5;
        Mode mode = Mode.EDP_STANDARD;
        boolean driversOnly = false;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--seconds" -> seconds = Long.parseLong(args[++i]);
                    case "--mode" -> mode = Mode.parse(args[++i]);
                    case "--drivers-only" -> driversOnly = true;
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        } catch (RuntimeException e) {
            err.println("bench afpacket: " + e.getMessage()
                    + " (usage: bench afpacket [--seconds N] [--mode MODE] [--drivers-only])");
            return 2;
        }
        List<String> missing = HostCommand.missing(TOOLS);
        if (!missing.isEmpty()) {
            err.println("bench afpacket: not found on PATH: " + String.join(", ", missing)
                    + " (Debian: sudo apt-get install -y iproute2 netsniff-ng procps util-linux)");
            return 1;
        }
        Mode engineMode = mode;
        ForwarderFactory forwarders = driversOnly ? DriverLoopForwarder::new
                : (ingress, egress) -> new EngineForwarder(ingress, egress, engineMode, out);
        out.println("bench afpacket: " + (driversOnly ? "AF_PACKET drivers alone" : "engine in " + mode)
                + ", " + seconds + " s per case");
        try {
            new AfPacketBench(forwarders, seconds, out).run();
            return 0;
        } catch (NicSetupException | IllegalStateException | UncheckedIOException e) {
            err.println("bench afpacket: " + e.getMessage());
            return 1;
        }
    }

    public List<Result> run() {
        List<Result> results = new ArrayList<>();
        try (VethLab lab = new VethLab()) {
            VethLab.ForwardingPath path = lab.forwardingPath();
            out.printf("%-6s %-7s %-8s %12s %14s %8s %10s%n", "frame", "flows", "offered", "offered Mpps",
                    "forwarded Mpps", "loss %", "engine CPU");
            for (int frameBytes : new int[] {64, 1518}) {
                for (int flows : new int[] {1, 10_000}) {
                    results.add(measure(lab, path, new TrafgenProfile(flows, frameBytes, 0), null));
                }
            }
            for (int flows : new int[] {1, 10_000}) {
                results.add(measure(lab, path, new TrafgenProfile(flows, 64, 0), OVS_RATE));
            }
        }
        write(results);
        return results;
    }

    private Result measure(VethLab lab, VethLab.ForwardingPath path, TrafgenProfile profile, String rate) {
        OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
        try (Forwarder forwarder = forwarders.open(path.ingress(), path.egress())) {
            try (VethLab.RunningTrafgen generator = lab.trafgenUntilStopped(path.generator(), VethLab.GENERATOR_DEVICE, profile, rate)) {
                pause(warmupNanos);
                generator.requireRunning();
                // The window is read from the root-namespace veth ends (a file read, microseconds apart): ingress
                // rx_packets is what the generator's veth delivered, egress tx_packets exactly what the sink's
                // veth received. Reading the namespaced ends needs a process per read, whose delay under load
                // skewed the two windows by tens of milliseconds. Frames the generator's veth dropped before
                // the engine host took them (its backlog full) count as offered and lost.
                long refused0 = lab.counter(path.generator(), VethLab.GENERATOR_DEVICE, "tx_dropped");
                long offered0 = lab.counter(null, path.ingress(), "rx_packets");
                long forwarded0 = lab.counter(null, path.egress(), "tx_packets");
                long dropped0 = forwarder.dropped() + lab.counter(null, path.egress(), "tx_dropped");
                long cpu0 = os.getProcessCpuTime();
                long start = System.nanoTime();
                pause(measureNanos);
                long received = lab.counter(null, path.ingress(), "rx_packets") - offered0;
                long forwarded = lab.counter(null, path.egress(), "tx_packets") - forwarded0;
                long dropped = forwarder.dropped() + lab.counter(null, path.egress(), "tx_dropped") - dropped0;
                long cpu = os.getProcessCpuTime() - cpu0;
                long elapsed = System.nanoTime() - start;
                long refused = lab.counter(path.generator(), VethLab.GENERATOR_DEVICE, "tx_dropped") - refused0;
                long offered = received + refused;
                generator.requireRunning();
                if (offered == 0) {
                    throw new IllegalStateException("no frame reached " + path.ingress() + " in the window: trafgen "
                            + "runs but does not send");
                }
                long lost = refused + dropped;
                Result result = new Result(profile.frameBytes(), profile.flows(), rate == null ? "max" : rate,
                        round(offered * 1e3 / elapsed), round(forwarded * 1e3 / elapsed),
                        round(offered == 0 ? 0 : 100.0 * lost / offered),
                        round(100.0 * cpu / elapsed));
                out.printf(Locale.ROOT, "%-6d %-7d %-8s %12.3f %14.3f %8.2f %9.1f%%%n", result.frame_bytes(),
                        result.flows(), result.offered_rate(), result.offered_mpps(), result.forwarded_mpps(),
                        result.loss_pct(), result.engine_cpu_pct());
                // what is neither forwarded nor counted lost was in flight (in the RX ring) at an end of the window
                out.println("       lost " + lost + " (generator veth refused " + refused + "), in flight at the window's ends "
                        + (offered - forwarded - lost));
                return result;
            }
        }
    }

    private void write(List<Result> results) {
        try {
            Files.createDirectories(OUTPUT.getParent());
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValue(OUTPUT.toFile(), results);
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
