package io.edp.bench;

import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.nic.loopback.TrafficGenerator;
import io.edp.engine.packetlog.PacketLogConfig;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.telemetry.IpfixConfig;
import io.edp.engine.telemetry.IpfixStats;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bench telemetry}: what IPFIX costs each mode. The profile of {@code bench engine} (125,000 UDP flows,
 * 256 rules, 1,000 routes, one worker, 64-byte frames), each mode with telemetry off, with IPFIX on at sampling 0
 * (every packet counted) and the default timeouts ({@code ipfix}: active 60 s, idle 15 s, so the window sees the
 * counting and little export), and the same with an active timeout of 1 s ({@code ipfix-1s}, below the settings'
 * 60 s minimum: every flow is exported as fast as the sweep reaches it, an upper bound on what the export costs),
 * and {@code ipfix+log}: {@code ipfix} with firewall packet logging on and every rule logged (each connection's
 * start and end is a line, and its packets and bytes are counted on every hit for its TERM line), to a syslog
 * server on loopback; in one run, rounds interleaved; a collector on loopback takes the export and the lines.
 * Packets per core-second charge the worker thread, the exporter's and the packet logger's. drop_pct is the loss
 * against telemetry off of the same mode in the same run, from the median round of each (the machine this runs on is
 * shared: one window can be off by 15 % either way).
 * Writes {@code target/bench/telemetry.json}.
 */
final class TelemetryBenchmark {

    private static final Path OUTPUT = Path.of("target", "bench", "telemetry.json");
    /** Rows as {@code {mode, telemetry, packets_per_core_second, drop_pct, ...}}. */
    private static final JsonMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    private static final long WARM_UP_MILLIS = 3_000;
    private static final long WINDOW_MILLIS = 5_000;
    private static final int ROUNDS = 3;
    /** Twice the flows: the LEGACY flow table holds them all, as the cache does. */
    private static final int MAX_FLOWS = 262_144;
    private static final List<String> CASES = List.of("legacy-64", "standard-64");

    record Row(String mode, String telemetry, double packetsPerCoreSecond, double dropPct, long recordsExported,
            long recordsDropped, double loadAverage) {
    }

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    static int run(PrintStream out, PrintStream err) {
        try (DatagramChannel collector = DatagramChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            AtomicLong received = new AtomicLong();
            Thread drain = Thread.ofPlatform().daemon(true).name("bench-collector").start(() -> receive(collector,
                    received));
            List<Row> rows = new TelemetryBenchmark().measure((InetSocketAddress) collector.getLocalAddress(), out);
            collector.close();
            drain.join();
            Files.createDirectories(OUTPUT.getParent());
            Files.writeString(OUTPUT, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(Map.of("rows",
                    rows, "collectorMessages", received.get())));
            out.printf("%n%-13s %-9s %22s %9s %10s%n", "mode", "telemetry", "packets/core-second", "drop_pct",
                    "records");
            for (Row r : rows) {
                out.printf(Locale.ROOT, "%-13s %-9s %,22.0f %8.1f%% %,10d%n", r.mode(), r.telemetry(),
                        r.packetsPerCoreSecond(), r.dropPct(), r.recordsExported());
            }
            out.println("written to " + OUTPUT);
            return 0;
        } catch (IOException e) {
            err.println("bench telemetry: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    private static void receive(DatagramChannel collector, AtomicLong received) {
        ByteBuffer buffer = ByteBuffer.allocate(65_536);
        try {
            while (true) {
                buffer.clear();
                collector.receive(buffer);
                received.incrementAndGet();
            }
        } catch (ClosedChannelException e) {
            // the run is over
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<Row> measure(InetSocketAddress collector, PrintStream out) {
        IpfixConfig ipfix = new IpfixConfig(List.of(collector), 1, IpfixConfig.DEFAULT_ACTIVE_TIMEOUT_MILLIS,
                IpfixConfig.DEFAULT_IDLE_TIMEOUT_MILLIS, 0, MAX_FLOWS, IpfixConfig.DEFAULT_MTU,
                IpfixConfig.DEFAULT_TEMPLATE_REFRESH_MILLIS);
        PacketLogConfig logging = new PacketLogConfig(true, List.of(new PacketLogConfig.SyslogServer(
                collector.getHostString(), collector.getPort(), PacketLogConfig.Transport.UDP)), null,
                PacketLogConfig.DEFAULT_FILE_MAX_BYTES, PacketLogConfig.DEFAULT_FILE_COUNT,
                PacketLogConfig.DEFAULT_LINES_PER_SECOND);
        Map<String, UnaryOperator<EngineConfig.Builder>> settings = new LinkedHashMap<>();
        settings.put("off", b -> b.ipfix(IpfixConfig.DISABLED));
        settings.put("ipfix", b -> b.ipfix(ipfix));
        settings.put("ipfix-1s", b -> b.ipfix(ipfix.withTimeouts(1_000, IpfixConfig.DEFAULT_IDLE_TIMEOUT_MILLIS)));
        settings.put("ipfix+log", b -> b.ipfix(ipfix).packetLog(logging).rules(logged(b.build().firewallRules())));
        Map<String, List<Row>> rounds = new LinkedHashMap<>();
        for (int round = 1; round <= ROUNDS; round++) {
            for (String id : CASES) {
                EngineCase c = EngineCase.byId(id);
                for (Map.Entry<String, UnaryOperator<EngineConfig.Builder>> telemetry : settings.entrySet()) {
                    EngineConfig config = telemetry.getValue().apply(c.config().toBuilder()).build();
                    Row row = window(c, config, telemetry.getKey());
                    out.printf(Locale.ROOT, "round %d %-13s %-6s %,.0f packets/core-second (load %.1f)%n", round,
                            row.mode(), row.telemetry(), row.packetsPerCoreSecond(), row.loadAverage());
                    rounds.computeIfAbsent(row.mode() + "/" + row.telemetry(), k -> new ArrayList<>()).add(row);
                }
            }
        }
        Map<String, Row> median = new LinkedHashMap<>();
        rounds.forEach((key, measured) -> median.put(key, measured.stream()
                .sorted(java.util.Comparator.comparingDouble(Row::packetsPerCoreSecond)).toList()
                .get(measured.size() / 2)));
        List<Row> rows = new ArrayList<>();
        for (Row r : median.values()) {
            double off = median.get(r.mode() + "/off").packetsPerCoreSecond();
            rows.add(new Row(r.mode(), r.telemetry(), r.packetsPerCoreSecond(),
                    Math.round(1000 * (1 - r.packetsPerCoreSecond() / off)) / 10.0, r.recordsExported(),
                    r.recordsDropped(), r.loadAverage()));
        }
        return rows;
    }

    private static List<FirewallRule> logged(List<FirewallRule> rules) {
        return rules.stream().map(r -> r.withLog(true)).toList();
    }

    private Row window(EngineCase c, EngineConfig config, String telemetry) {
        try (Engine engine = Engine.start(config)) {
            TrafficGenerator generator = ((LoopbackNic) engine.driver(0)).startTraffic(c.traffic());
            long start = System.nanoTime();
            while (engine.stats().rxPackets() < c.warmUpPackets()
                    || System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(WARM_UP_MILLIS)) {
                EngineCaseRun.pause(50);
            }
            long[] charged = {engine.workerThreadIds()[0], engine.exporterThreadId(), engine.packetLog().threadId()};
            long packets0 = engine.stats().rxPackets();
            IpfixStats export0 = engine.ipfixStats();
            long cpu0 = cpu(charged);
            EngineCaseRun.pause(WINDOW_MILLIS);
            long cpu = cpu(charged) - cpu0;
            long packets = engine.stats().rxPackets() - packets0;
            IpfixStats export = engine.ipfixStats();
            generator.stop();
            return new Row(c.mode().name(), telemetry, packets * 1e9 / cpu, 0,
                    export.recordsExported() - export0.recordsExported(),
                    export.recordsDropped() - export0.recordsDropped(), MachineLoad.read().oneMinute());
        }
    }

    private long cpu(long[] ids) {
        long total = 0;
        for (long id : ids) {
            total += id < 0 ? 0 : Math.max(0, threads.getThreadCpuTime(id));
        }
        return total;
    }
}
