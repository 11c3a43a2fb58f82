package io.edp.bench;

import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.FlowCacheConfig;
import io.edp.engine.Mode;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code bench engine}: the seed's UDP profile scaled to one worker — 125,000 concurrent flows, 256 firewall
 * rules (the allowing rule last), 1,000 routes, connection tracking on — through LEGACY, EDP_STANDARD and
 * EDP_DEDICATED at 64 and 1518 bytes. The traffic generator runs on its own thread; packets per core-second
 * charges only the worker thread's CPU time (ThreadMXBean), so it means the same on any machine.
 */
final class EngineBenchmark {

    static final int FLOWS = 125_000;
    static final int RULES = 256;
    static final int ROUTES = 1_000;
    /** Measurement windows per case; the median one is reported. */
    static final int SLICES = 5;
    /** The live verifier's sample rate whose cost is measured. */
    static final int VERIFIED_SAMPLE_RATE = 1_000;
    private static final String ROUTER_MAC = EngineConfig.DEFAULT_ROUTER_MAC;

    /**
     * One mode and frame size. {@code nsPerPacket} is worker CPU time per packet (idle polling included, as a
     * core-second is); {@code busyNsPerPacket} is the worker's own busy time (non-empty bursts, wall clock) per
     * packet; {@code packetsPerPoll} is packets per worker iteration (32 = every poll found a full burst, lower =
     * the worker polled faster than the generator fed it); {@code loadAverage} the machine's 1-minute load average
     * at the end of the window.
     */
    record Result(Mode mode, int frameBytes, double mpps, double gbps, double nsPerPacket,
            double packetsPerCoreSecond, double hitRate, double allocBytesPerPacket, double busyNsPerPacket,
            double packetsPerPoll, double loadAverage) {
    }

    private final boolean quick;
    private final PrintStream out;
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    EngineBenchmark(boolean quick, PrintStream out) {
        this.quick = quick;
        this.out = out;
    }

    int run() {
        long measureMillis = quick ? 2_500 : 10_000;
        List<Result> results = new ArrayList<>();
        Mode[] modes = {Mode.LEGACY, Mode.EDP_STANDARD, Mode.EDP_DEDICATED};
        int[] sizes = {64, 1518};
        int step = 0;
        out.printf("bench engine%s: %,d flows, %d firewall rules, %,d routes, conntrack on, 1 worker%n",
                quick ? " --quick" : "", FLOWS, RULES, ROUTES);
        for (Mode mode : modes) {
            for (int size : sizes) {
                out.printf("[%d/%d] %-13s %4d B: warming up...", ++step, modes.length * sizes.length, mode, size);
                out.flush();
                results.add(measure(mode, size, FLOWS, measureMillis));
                out.println(" done");
            }
        }
        out.print("[floor] EDP_STANDARD 64 B, one flow (a hot cache entry, so what remains is packet I/O):");
        Result floor = measure(Mode.EDP_STANDARD, 64, 1, measureMillis);
        out.println(" done");
        // the live verifier's cost: the same case without and with one hit in VERIFIED_SAMPLE_RATE checked, back to back
        out.printf("[verifier] EDP_STANDARD 64 B, verifierSampleRate 0 then %d:", VERIFIED_SAMPLE_RATE);
        Result unverified = measure(config(Mode.EDP_STANDARD), 64, FLOWS, measureMillis);
        Result verified = measure(config(Mode.EDP_STANDARD, VERIFIED_SAMPLE_RATE), 64, FLOWS, measureMillis);
        out.println(" done");
        printTable(results);
        out.printf(Locale.ROOT, "fast-path floor with one flow: %.1f ns per packet of worker CPU (%,.0f packets per "
                + "core-second), %.1f busy ns per packet, %.1f packets per poll%n", floor.nsPerPacket(),
                floor.packetsPerCoreSecond(), floor.busyNsPerPacket(), floor.packetsPerPoll());
        out.printf(Locale.ROOT, "live verifier at 1/%d: %,.0f vs %,.0f packets per core-second without it (%+.1f %%), "
                + "busy ns per packet %.1f vs %.1f (loads %.1f, %.1f)%n", VERIFIED_SAMPLE_RATE,
                verified.packetsPerCoreSecond(), unverified.packetsPerCoreSecond(),
                (verified.nsPerPacket() / unverified.nsPerPacket() - 1) * 100, verified.busyNsPerPacket(),
                unverified.busyNsPerPacket(), verified.loadAverage(), unverified.loadAverage());
        try {
            writeJson(results, Path.of("target", "bench", "engine.json"));
        } catch (IOException e) {
            out.println("cannot write target/bench/engine.json: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    private Result measure(Mode mode, int frameBytes, int flows, long measureMillis) {
        return measure(config(mode), frameBytes, flows, measureMillis);
    }

    private Result measure(EngineConfig config, int frameBytes, int flows, long measureMillis) {
        Mode mode = config.mode();
        try (Engine engine = Engine.start(config)) {
            LoopbackNic in = (LoopbackNic) engine.driver(0);
            TrafficProfile profile = TrafficProfile.udp().withFlows(flows).withFrameBytes(frameBytes)
                    .withMacs("02:00:00:00:00:aa", ROUTER_MAC).withAddresses("10.0.0.0", "10.128.0.0", ROUTES);
            TrafficGenerator generator = in.startTraffic(profile);
            // warm-up: every flow installed (EDP) / tracked (conntrack), JIT compiled
            long warm = Math.max(FLOWS, flows * 3L);
            long warmDeadline = System.nanoTime() + 60_000_000_000L;
            while (engine.stats().rxPackets() < warm && System.nanoTime() < warmDeadline) {
                pause(50); // the box has two cores: the generator and the worker own them
            }
            out.print(" measuring...");
            out.flush();
            List<Result> slices = new ArrayList<>();
            for (int i = 0; i < SLICES; i++) {
                slices.add(slice(engine, mode, frameBytes, measureMillis / SLICES));
            }
            generator.stop();
            // the box is shared: report the median slice by packets per core-second, not a lucky or unlucky one
            slices.sort(java.util.Comparator.comparingDouble(Result::packetsPerCoreSecond));
            return slices.get(SLICES / 2);
        }
    }

    /** Measures one window of the running engine: worker thread CPU and allocation, packets, cache hits. */
    private Result slice(Engine engine, Mode mode, int frameBytes, long millis) {
        long[] ids = engine.workerThreadIds();
        EngineStats before = engine.stats();
        long cpu0 = cpu(ids);
        long alloc0 = allocated(ids);
        long wall0 = System.nanoTime();
        pause(millis);
        long wall = System.nanoTime() - wall0;
        long cpu = cpu(ids) - cpu0;
        long alloc = allocated(ids) - alloc0;
        EngineStats after = engine.stats();
        long packets = Math.max(1, after.rxPackets() - before.rxPackets());
        long hits = after.flowCache().hits() - before.flowCache().hits();
        long slow = after.flowCache().slowPath() - before.flowCache().slowPath();
        long busy = after.workers().getFirst().busyNanos() - before.workers().getFirst().busyNanos();
        long polls = Math.max(1, after.workers().getFirst().iterations() - before.workers().getFirst().iterations());
        double mpps = packets / (wall / 1e9) / 1e6;
        return new Result(mode, frameBytes, mpps, mpps * frameBytes * 8 / 1000, (double) cpu / packets,
                packets / (cpu / 1e9), hits + slow == 0 ? 0 : (double) hits / (hits + slow),
                (double) alloc / packets, (double) busy / packets, (double) packets / polls,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private long cpu(long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += threads.getThreadCpuTime(id);
        }
        return sum;
    }

    private long allocated(long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += threads.getThreadAllocatedBytes(id);
        }
        return sum;
    }

    static EngineConfig config(Mode mode) {
        return config(mode, 0);
    }

    static EngineConfig config(Mode mode, int verifierSampleRate) {
        EngineConfig.Builder b = EngineConfig.builder()
                .mode(mode)
                .port(new PortConfig(0, "wire-in", 0, 1, 1, "loopback", Map.of("ringSize", "4096")))
                // the sink only counts: its per-flow checks would be charged to the worker's transmit
                .port(new PortConfig(1, "wire-out", 0, 1, 1, "loopback", Map.of("sinkFlows", "0")))
                .workers(0, 1)
                .flowCache(FlowCacheConfig.DEFAULT.withVerifierSampleRate(verifierSampleRate))
                .conntrackCapacity(262_144)
                .mbufs(65_536); // a sixteenth of the pool may be posted to the RX queue: its whole 4,096-slot ring
        for (int i = 1; i < RULES; i++) {
            // rules that the traffic does not match: other sources, or other destination ports
            String source = "192.168." + (i % 256) + ".0/24";
            b.rule(i % 2 == 0
                    ? FirewallRule.of(i, source, "any", 17, Verdict.DROP)
                    : new FirewallRule(i, "10.0.0.0/8", "10.128.0.0/9", 17, PortRange.ANY,
                            PortRange.of(6000 + i), Set.of(), Verdict.REJECT));
        }
        b.rule(FirewallRule.of(RULES, "10.0.0.0/8", "10.128.0.0/9", 17, Verdict.ALLOW));
        for (int i = 0; i < ROUTES; i++) {
            int net = (10 << 24) | (128 << 16) | (i << 8);
            b.route(new Route(((net >>> 24) & 0xFF) + "." + ((net >>> 16) & 0xFF) + "." + ((net >>> 8) & 0xFF)
                    + ".0/24", "02:00:00:00:01:01", 1, 100));
        }
        b.route(new Route("0.0.0.0/0", "02:00:00:00:01:02", 1, 100));
        return b.build();
    }

    private void printTable(List<Result> results) {
        out.println();
        out.printf("%-13s %6s %8s %8s %9s %14s %8s %12s %12s %9s %6s%n", "mode", "frame", "Mpps", "Gbps", "ns/pkt",
                "pkts/core-s", "hit", "alloc B/pkt", "busy ns/pkt", "pkts/poll", "load");
        for (Result r : results) {
            out.printf(Locale.ROOT, "%-13s %6d %8.2f %8.2f %9.1f %,14.0f %8.3f %12.3f %12.1f %9.1f %6.1f%n", r.mode(),
                    r.frameBytes(), r.mpps(), r.gbps(), r.nsPerPacket(), r.packetsPerCoreSecond(), r.hitRate(),
                    r.allocBytesPerPacket(), r.busyNsPerPacket(), r.packetsPerPoll(), r.loadAverage());
        }
        out.println("""
                ns/pkt and pkts/core-s charge the worker thread's CPU time only (the generator's is excluded), idle
                polling included: a worker that finds its queue empty (pkts/poll well below 32) pays for polling it,
                EDP_DEDICATED most of all since it never parks. busy ns/pkt is the wall time of non-empty bursts per
                packet: the cost of the packets themselves, inflated when the worker is descheduled inside a burst.
                load is the machine's 1-minute load average; on a shared machine, compare rows of similar load.""");
        for (int size : new int[] {64, 1518}) {
            double legacy = 0;
            double standard = 0;
            for (Result r : results) {
                if (r.frameBytes() == size && r.mode() == Mode.LEGACY) {
                    legacy = r.packetsPerCoreSecond();
                } else if (r.frameBytes() == size && r.mode() == Mode.EDP_STANDARD) {
                    standard = r.packetsPerCoreSecond();
                }
            }
            out.printf(Locale.ROOT, "EDP_STANDARD / LEGACY packets per core-second at %d B: %.2fx%n", size,
                    standard / legacy);
        }
    }

    private void writeJson(List<Result> results, Path file) throws IOException {
        Files.createDirectories(file.getParent());
        StringBuilder json = new StringBuilder("[\n");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            json.append(String.format(Locale.ROOT, "  {\"mode\": \"%s\", \"frame_bytes\": %d, \"mpps\": %.4f, "
                    + "\"gbps\": %.4f, \"ns_per_packet\": %.2f, \"packets_per_core_second\": %.0f, "
                    + "\"hit_rate\": %.4f, \"alloc_bytes_per_packet\": %.4f, \"busy_ns_per_packet\": %.2f, "
                    + "\"packets_per_poll\": %.2f, \"load_average\": %.2f}%s%n",
                    r.mode(), r.frameBytes(), r.mpps(), r.gbps(), r.nsPerPacket(), r.packetsPerCoreSecond(),
                    r.hitRate(), r.allocBytesPerPacket(), r.busyNsPerPacket(), r.packetsPerPoll(), r.loadAverage(),
                    i < results.size() - 1 ? "," : ""));
        }
        json.append("]\n");
        Files.writeString(file, json);
        out.println("wrote " + file);
    }
}
