package io.edp.bench;

import io.edp.cli.StatsLine;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.Mode;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.afpacket.AfPacketDriver;
import io.edp.engine.numa.CpuSet;
import io.edp.engine.numa.NumaTopology;
import io.edp.engine.numa.WorkerPinning;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import io.edp.engine.time.SystemClock;
import java.io.PrintStream;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The engine with one worker between two AF_PACKET ports: frames to its router MAC for 10.0.1.0/24 are routed
 * out of the egress port, through a firewall whose rules the benchmark traffic has to be checked against (a
 * DROP rule for another subnet, then an ALLOW rule for the benchmark's). {@link OvsForwarder#flows} is the same
 * work in OpenFlow.
 */
final class EngineForwarder implements AfPacketBench.Forwarder {

    private static final int BENCH_RX_BLOCKS = 256;
    static final String DROPPED_SOURCES = "192.0.2.0/24";
    static final String ALLOWED_SOURCES = "10.0.0.0/24";
    static final String ROUTED_PREFIX = "10.0.1.0/24";
    static final String NEXT_HOP_MAC = "02:00:00:00:00:99";

    private final Engine engine;
    private final PrintStream out;

    /** The engine forwarding from {@code ingress} to {@code egress}, its worker on {@code cpu} (-1: anywhere). */
    EngineForwarder(String ingress, String egress, Mode mode, int cpu, PrintStream out) {
        this.out = out;
        EngineConfig config = EngineConfig.builder()
                .mode(mode)
                .workers(0, 1)
                // 64 MiB RX ring: on a shared 2-core machine the worker can be descheduled for a large fraction
                // of a second; the ring, not the engine, decides whether that costs frames
                .port(new PortConfig(1, "ingress", 0, 1, 1, "af_packet", Map.of("interface", ingress,
                        "rxBlockCount", Integer.toString(BENCH_RX_BLOCKS))))
                .port(new PortConfig(2, "egress", 0, 1, 1, "af_packet", Map.of("interface", egress)))
                .route(new Route(ROUTED_PREFIX, NEXT_HOP_MAC, 2, 0))
                .rule(FirewallRule.of(1, DROPPED_SOURCES, "any", 0, Verdict.DROP))
                .rule(FirewallRule.of(2, ALLOWED_SOURCES, ROUTED_PREFIX, 17, Verdict.ALLOW))
                .build();
        engine = Engine.start(config, NicDrivers.standard(), SystemClock.INSTANCE);
        if (cpu >= 0) {
            engine.pinWorkers(new WorkerPinning(true, new NumaTopology(new TreeMap<>(Map.of(0, CpuSet.of(cpu))))));
        }
    }

    @Override
    public OptionalLong dropped() {
        AfPacketDriver ingress = (AfPacketDriver) engine.driver(1);
        AfPacketDriver egress = (AfPacketDriver) engine.driver(2);
        return OptionalLong.of(ingress.rxRingDrops() + egress.txDropped(0) + engine.stats().dropped());
    }

    /** Closes the engine; prints where frames were lost (kernel RX ring, TX ring, engine drop reasons). */
    @Override
    public void close() {
        String drops = StatsLine.drops(engine.stats());
        AfPacketDriver ingress = (AfPacketDriver) engine.driver(1);
        AfPacketDriver egress = (AfPacketDriver) engine.driver(2);
        String driverLosses = "       ingress ring drops=" + ingress.rxRingDrops()
                + ", egress TX ring full=" + egress.txDropped(0)
                + (egress.txKickFailures(0) == 0
                        ? "" : ", failed kicks=" + egress.txKickFailures(0) + " " + egress.txLastKickError(0));
        engine.close();
        out.println(driverLosses + (drops.isEmpty() ? "" : "; engine drops:" + drops));
    }
}
