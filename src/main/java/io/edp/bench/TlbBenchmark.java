package io.edp.bench;

import io.edp.engine.AdapterType;
import io.edp.engine.Engine;
import io.edp.engine.EngineBalancing;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.Mode;
import io.edp.engine.VnicConfig;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.nic.loopback.TrafficSink;
import io.edp.engine.tlb.QueueMove;
import io.edp.engine.tlb.ThreadLoadBalancer;
import io.edp.engine.tlb.TlbConfig;
import io.edp.engine.tlb.TlbDecision;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * {@code bench tlb}: the skewed-load scenario with real traffic. Four VMs, each reached through its own loopback
 * uplink of 4 RX queues (NetQueue steering: the VM's MAC and VLAN into a shared RSS pool of the 4 queues), 16
 * uplink queues on 4 EDP_STANDARD workers. Each VM's queues start on one worker, as a per-VM NetQueue placement
 * leaves them; VM 0 is hot. For {@code before} the balancer is off, then it runs every interval; a sample per
 * second prints each worker's utilization as the TLB sees it (busy time in non-empty bursts over wall time) and
 * as CPU time (thread CPU time over wall time). At the end the generators stop, the VM sinks drain and report
 * per-flow loss and reordering.
 */
final class TlbBenchmark {

    private static final int WORKERS = 4;
    private static final int VMS = 4;
    private static final int QUEUES_PER_UPLINK = 4;
    private static final int FLOWS_PER_VM = 1024;
    private static final Duration SAMPLE = Duration.ofSeconds(1);

    /** Offered load (0 packets per second: as fast as the generator and the rings go) and timeline. */
    record Settings(long hotPacketsPerSecond, long coldPacketsPerSecond, Duration before, Duration after,
                    TlbConfig tlb) {

        /**
         * The hot VM offers as much as its generator can send, the others 20,000 pps each (a generator's pacing
         * spins between bursts, so higher cold rates take CPU from the workers of a 2-core box). Elastic, because
         * a fixed rate that one worker cannot carry is more than the generator sustains on 2 cores once the
         * worker got cheaper per packet (1.6 Mpps left it at 19 %); the price is that the utilization after the
         * move also says how much CPU was free (docs/benchmarks.md). The TLB runs with its defaults except a 12 s
         * quiet time (default 30 s), so the run stays under a minute.
         */
        static Settings defaults() {
            return new Settings(0, 20_000, Duration.ofSeconds(12), Duration.ofSeconds(28),
                    TlbConfig.DEFAULTS.withMinTimeBetweenMoves(Duration.ofSeconds(12)));
        }
    }

    /** One sample: per-worker busy utilization and CPU utilization over the last second. */
    private record Sample(double seconds, double[] busy, double[] cpu, boolean balancing) {
    }

    private final Settings settings;
    private final PrintStream out;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    TlbBenchmark(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    int run() {
        out.printf("bench tlb: %d workers (EDP_STANDARD), %d VMs x %d RX queues, VM 0 hot: %s pps, others %,d pps%n",
                WORKERS, VMS, QUEUES_PER_UPLINK, settings.hotPacketsPerSecond() == 0 ? "max"
                        : String.format("%,d", settings.hotPacketsPerSecond()), settings.coldPacketsPerSecond());
        try (Engine engine = Engine.start(config())) {
            for (int vm = 0; vm < VMS; vm++) {
                for (int queue = 0; queue < QUEUES_PER_UPLINK; queue++) {
                    engine.moveQueue(vm, queue, vm);
                }
            }
            long trafficStart = System.nanoTime();
            List<TrafficGenerator> generators = new ArrayList<>();
            for (int vm = 0; vm < VMS; vm++) {
                long rate = vm == 0 ? settings.hotPacketsPerSecond() : settings.coldPacketsPerSecond();
                generators.add(((LoopbackNic) engine.driver(vm)).startTraffic(TrafficProfile.udp()
                        .withFlows(FLOWS_PER_VM).withRate(rate).withMacs("02:00:00:00:00:aa", vmMac(vm))
                        .withVlan(vlan(vm))));
            }
            warmUp(engine);
            ThreadLoadBalancer tlb = new ThreadLoadBalancer(settings.tlb(), new EngineBalancing(engine),
                    InstantSource.system());
            Timeline timeline = runTimeline(engine, tlb);
            long sent = 0;
            for (TrafficGenerator generator : generators) {
                generator.stop();
                sent += generator.sent();
            }
            double trafficSeconds = (System.nanoTime() - trafficStart) / 1e9;
            long[] delivered = drain(engine, sent);
            Result result = result(timeline, tlb, delivered);
            printTable(timeline.samples());
            printDecisions(tlb.history());
            printResult(result, sent, delivered[0], trafficSeconds);
            write(result, timeline);
            return result.packetsLost() == 0 && result.packetsReordered() == 0 ? 0 : 1;
        }
    }

    private static EngineConfig config() {
        EngineConfig.Builder config = EngineConfig.builder().mode(Mode.EDP_STANDARD).workers(0, WORKERS).mbufs(32_768);
        for (int vm = 0; vm < VMS; vm++) {
            // NetQueue steering with RSS on: the VM's MAC and VLAN into a shared pool of all the uplink's queues
            config.port(new PortConfig(vm, "uplink" + vm, 0, QUEUES_PER_UPLINK, 1, "loopback",
                    Map.of("steering", "netqueue", "rss", "true")));
        }
        for (int vm = 0; vm < VMS; vm++) {
            int port = VMS + vm;
            config.port(PortConfig.loopback(port, "vm" + vm + "-eth0", 0, 1, 1));
            config.vnic(new VnicConfig("vm" + vm + "-eth0", "vm" + vm, port, vmMac(vm), vlan(vm), AdapterType.VMXNET3));
        }
        return config.build();
    }

    private static String vmMac(int vm) {
        return "02:00:00:00:01:0" + vm;
    }

    private static int vlan(int vm) {
        return 100 + vm;
    }

    /** Until every flow was seen twice (flow caches filled), then 5 s more for the JIT to compile the hot paths. */
    private void warmUp(Engine engine) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (engine.stats().rxPackets() < 2L * VMS * FLOWS_PER_VM && System.nanoTime() < deadline) {
            pause(Duration.ofMillis(50));
        }
        out.println("warming up (5 s)");
        pause(Duration.ofSeconds(5));
    }

    /** The samples, when queues moved (seconds from the start), and the cycle that made the last move. */
    private record Timeline(List<Sample> samples, List<Double> moveSeconds, int cyclesToConverge) {
    }

    private Timeline runTimeline(Engine engine, ThreadLoadBalancer tlb) {
        List<Sample> samples = new ArrayList<>();
        List<Double> moveSeconds = new ArrayList<>();
        int cyclesToConverge = 0;
        long[] ids = engine.workerThreadIds();
        long start = System.nanoTime();
        long end = start + settings.before().plus(settings.after()).toNanos();
        long balanceFrom = start + settings.before().toNanos();
        long nextCycle = balanceFrom;
        long nextSample = start + SAMPLE.toNanos();
        int cycles = 0;
        EngineStats previous = engine.stats();
        long[] previousCpu = cpu(ids);
        out.printf("%n%6s %-8s", "t [s]", "TLB");
        for (int w = 0; w < WORKERS; w++) {
            out.printf("   w%d busy/cpu", w);
        }
        out.println();
        while (nextSample <= end) {
            long now = System.nanoTime();
            if (nextCycle <= now && nextCycle < end) {
                // cycle 0 only records the counters: loads need two samples
                Optional<TlbDecision> decision = tlb.runCycle();
                if (decision.isPresent() && decision.get().outcome() == TlbDecision.Outcome.APPLIED) {
                    cyclesToConverge = cycles;
                    moveSeconds.add((System.nanoTime() - start) / 1e9);
                }
                cycles++;
                nextCycle += settings.tlb().interval().toNanos();
            } else if (nextSample <= now) {
                EngineStats stats = engine.stats();
                long[] cpu = cpu(ids);
                Sample sample = sample((now - start) / 1e9, previous, stats, previousCpu, cpu, now >= balanceFrom);
                samples.add(sample);
                printRow(sample);
                previous = stats;
                previousCpu = cpu;
                nextSample += SAMPLE.toNanos();
            } else {
                pause(Duration.ofNanos(Math.min(nextCycle, nextSample) - now));
            }
        }
        return new Timeline(samples, moveSeconds, cyclesToConverge);
    }

    private static Sample sample(double seconds, EngineStats before, EngineStats after, long[] cpuBefore,
                                 long[] cpuAfter, boolean balancing) {
        double wall = after.takenAtNanos() - before.takenAtNanos();
        double[] busy = new double[WORKERS];
        double[] cpu = new double[WORKERS];
        for (int w = 0; w < WORKERS; w++) {
            busy[w] = (after.workers().get(w).busyNanos() - before.workers().get(w).busyNanos()) / wall;
            cpu[w] = (cpuAfter[w] - cpuBefore[w]) / wall;
        }
        return new Sample(seconds, busy, cpu, balancing);
    }

    private void printRow(Sample sample) {
        out.printf("%6.1f %-8s", sample.seconds(), sample.balancing() ? "on" : "off");
        for (int w = 0; w < WORKERS; w++) {
            out.printf("   %4.0f%% /%4.0f%%", sample.busy()[w] * 100, sample.cpu()[w] * 100);
        }
        out.println();
    }

    private long[] cpu(long[] ids) {
        long[] cpu = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            cpu[i] = threads.getThreadCpuTime(ids[i]);
        }
        return cpu;
    }

    /** Waits until the VM sinks have every sent frame; returns delivered, lost, reordered. */
    private long[] drain(Engine engine, long sent) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long[] totals;
        do {
            totals = new long[3];
            for (int vm = 0; vm < VMS; vm++) {
                TrafficSink sink = ((LoopbackNic) engine.driver(VMS + vm)).sink();
                totals[0] += sink.packets();
                totals[1] += sink.lost();
                totals[2] += sink.reordered();
            }
            if (totals[0] >= sent) {
                break;
            }
            pause(Duration.ofMillis(20));
        } while (System.nanoTime() < deadline);
        // frames sent but never delivered are lost too
        totals[1] += Math.max(0, sent - totals[0]);
        return totals;
    }

    record Result(double peakUtilBefore, double peakUtilAfter, int cyclesToConverge, int moves, long packetsLost,
                  long packetsReordered) {
    }

    /**
     * Peak before: the highest per-worker mean busy utilization while the TLB was off. Peak after: the same over
     * the second half of the balancing phase, when the moves have settled.
     */
    private Result result(Timeline timeline, ThreadLoadBalancer tlb, long[] delivered) {
        List<Sample> samples = timeline.samples();
        double settledFrom = settings.before().plus(settings.after().dividedBy(2)).toNanos() / 1e9;
        double before = peakOfMeans(samples, sample -> !sample.balancing() && sample.seconds() > 1.5);
        double after = peakOfMeans(samples, sample -> sample.seconds() > settledFrom);
        int moves = 0;
        for (TlbDecision decision : tlb.history()) {
            moves += decision.moves().size();
        }
        return new Result(before, after, timeline.cyclesToConverge(), moves, delivered[1], delivered[2]);
    }

    private static double peakOfMeans(List<Sample> samples, Predicate<Sample> window) {
        double[] sum = new double[WORKERS];
        int count = 0;
        for (Sample sample : samples) {
            if (window.test(sample)) {
                for (int w = 0; w < WORKERS; w++) {
                    sum[w] += sample.busy()[w];
                }
                count++;
            }
        }
        double peak = 0;
        for (double total : sum) {
            peak = Math.max(peak, count == 0 ? 0 : total / count);
        }
        return peak;
    }

    private void printTable(List<Sample> samples) {
        out.println();
        out.printf("mean utilization (busy / cpu)   %-22s %-22s%n", "TLB off", "TLB on, settled");
        double settledFrom = settings.before().plus(settings.after().dividedBy(2)).toNanos() / 1e9;
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            out.printf("worker %d                        %-22s %-22s%n", w,
                    means(samples, worker, s -> !s.balancing() && s.seconds() > 1.5),
                    means(samples, worker, s -> s.seconds() > settledFrom));
        }
    }

    private static String means(List<Sample> samples, int worker, Predicate<Sample> window) {
        double busy = 0;
        double cpu = 0;
        int count = 0;
        for (Sample sample : samples) {
            if (window.test(sample)) {
                busy += sample.busy()[worker];
                cpu += sample.cpu()[worker];
                count++;
            }
        }
        return count == 0
                ? "-"
                : String.format(Locale.ROOT, "%5.1f %% / %5.1f %%", busy / count * 100, cpu / count * 100);
    }

    private void printDecisions(List<TlbDecision> decisions) {
        out.println();
        out.println("TLB decisions:");
        for (TlbDecision decision : decisions) {
            out.printf("  %s %-8s %-20s before %s predicted %s%n", decision.at(), decision.trigger(),
                    decision.outcome(), percent(decision.loadsBefore()), percent(decision.loadsPredicted()));
            for (QueueMove move : decision.moves()) {
                out.printf(Locale.ROOT, "      queue %s: worker %d -> %d (load %.1f %%)%n", move.queue(),
                        move.fromWorker(), move.toWorker(), move.load() * 100);
            }
        }
    }

    private static String percent(Map<Integer, Double> loads) {
        StringBuilder text = new StringBuilder("[");
        loads.forEach((worker, load) -> text.append(text.length() > 1 ? " " : "")
                .append(String.format(Locale.ROOT, "%.0f%%", load * 100)));
        return text.append(']').toString();
    }

    private void printResult(Result result, long sent, long delivered, double trafficSeconds) {
        out.printf(Locale.ROOT, "%npeak utilization before %.1f %%, after %.1f %%; %d moves, converged after %d "
                        + "cycle(s)%n%,d frames sent in %.1f s (%.2f Mpps, all VMs), %,d delivered, %d lost, "
                        + "%d reordered%n",
                result.peakUtilBefore() * 100, result.peakUtilAfter() * 100, result.moves(),
                result.cyclesToConverge(), sent, trafficSeconds, sent / trafficSeconds / 1e6, delivered,
                result.packetsLost(), result.packetsReordered());
    }

    private void write(Result result, Timeline timeline) {
        List<Sample> samples = timeline.samples();
        Path dir = Path.of("target", "bench");
        StringBuilder json = new StringBuilder();
        json.append(String.format(Locale.ROOT, "{\"peak_util_before\": %.4f, \"peak_util_after\": %.4f, "
                        + "\"cycles_to_converge\": %d, \"moves\": %d, "
                        + "\"packets_lost\": %d, \"packets_reordered\": %d,%n",
                result.peakUtilBefore(), result.peakUtilAfter(), result.cyclesToConverge(), result.moves(),
                result.packetsLost(), result.packetsReordered()));
        json.append(String.format(Locale.ROOT, " \"hot_pps\": %d, \"cold_pps\": %d, \"samples\": [%n",
                settings.hotPacketsPerSecond(), settings.coldPacketsPerSecond()));
        for (int i = 0; i < samples.size(); i++) {
            Sample s = samples.get(i);
            json.append(String.format(Locale.ROOT, "  {\"t\": %.2f, \"tlb\": %b, \"busy\": %s, \"cpu\": %s}%s%n",
                    s.seconds(), s.balancing(), array(s.busy()), array(s.cpu()), i + 1 < samples.size() ? "," : ""));
        }
        json.append(" ]}\n");
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("tlb.json"), json);
            List<UtilizationChart.Point> points = new ArrayList<>();
            for (Sample s : samples) {
                points.add(new UtilizationChart.Point(s.seconds(), s.busy()));
            }
            UtilizationChart.write(dir.resolve("tlb.png"), "bench tlb: worker utilization (busy time / wall time)",
                    List.of("worker 0", "worker 1", "worker 2", "worker 3"), points, settings.tlb().threshold(),
                    settings.before().toNanos() / 1e9, timeline.moveSeconds());
            out.println("wrote target/bench/tlb.json and target/bench/tlb.png");
        } catch (IOException e) {
            out.println("cannot write target/bench/tlb.json: " + e.getMessage());
        }
    }

    private static String array(double[] values) {
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            text.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4f", values[i]));
        }
        return text.append(']').toString();
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
