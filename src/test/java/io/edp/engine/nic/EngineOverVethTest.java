package io.edp.engine.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.bench.TrafgenProfile;
import io.edp.bench.VethLab;
import io.edp.engine.Engine;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.packet.DropReason;
import io.edp.engine.time.SystemClock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The engine on real interfaces: trafgen in a generator namespace sends 64 UDP flows to the engine's router MAC
 * over a veth pair; the engine (EDP_STANDARD, firewall and routing) reads them with AF_PACKET on two fanout
 * queues, routes 10.0.1.0/24 out of a second veth into a sink namespace, and a DROP rule blocks one flow.
 */
class EngineOverVethTest {

    private static final int FLOWS = 64;
    private static final int FRAMES_PER_FLOW = 100;
    private static final int BLOCKED_SOURCE_PORT = TrafgenProfile.FIRST_SOURCE_PORT + 3;
    private static final long DEADLINE_NANOS = 15_000_000_000L;

    @RegisterExtension
    static final ForwardingPathExtension TOPOLOGY = new ForwardingPathExtension();

    @Test
    void framesCrossTheEngineRoutedExceptTheFlowTheFirewallDropsAndEveryCounterAgrees() {
        VethLab lab = TOPOLOGY.lab();
        VethLab.ForwardingPath path = TOPOLOGY.path();
        long frames = (long) FLOWS * FRAMES_PER_FLOW;
        long blocked = FRAMES_PER_FLOW;
        EngineConfig config = RoutedWithOneFlowBlocked.config(
                new PortConfig(1, "uplink-in", 0, 2, 1, "af_packet", Map.of("interface", path.ingress())),
                new PortConfig(2, "uplink-out", 0, 1, 1, "af_packet", Map.of("interface", path.egress())),
                BLOCKED_SOURCE_PORT);
        long generated0 = lab.counter(path.generator(), VethLab.GENERATOR_DEVICE, "tx_packets");
        long in0 = lab.counter(null, path.ingress(), "rx_packets");
        long out0 = lab.counter(null, path.egress(), "tx_packets");
        long sink0 = lab.counter(path.sink(), VethLab.SINK_DEVICE, "rx_packets");

        try (Engine engine = Engine.start(config, NicDrivers.standard(), SystemClock.INSTANCE)) {
            lab.trafgen(path.generator(), VethLab.GENERATOR_DEVICE, new TrafgenProfile(FLOWS, 64, 0), frames);
            EngineStats stats = awaitReceived(engine, frames);
            awaitCounter(path.sink(), VethLab.SINK_DEVICE, sink0 + frames - blocked);

            assertThat(lab.counter(path.generator(), VethLab.GENERATOR_DEVICE, "tx_packets") - generated0)
                    .isEqualTo(frames);
            assertThat(lab.counter(null, path.ingress(), "rx_packets") - in0).isEqualTo(frames);
            assertThat(stats.rxPackets()).isEqualTo(frames);
            assertThat(stats.drops().get(DropReason.FIREWALL_DROP)).isEqualTo(blocked);
            assertThat(engine.stats().txPackets()).isEqualTo(frames - blocked);
            assertThat(lab.counter(null, path.egress(), "tx_packets") - out0).isEqualTo(frames - blocked);
            assertThat(lab.counter(path.sink(), VethLab.SINK_DEVICE, "rx_packets") - sink0).isEqualTo(frames - blocked);
        }
    }

    private static EngineStats awaitReceived(Engine engine, long frames) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        EngineStats stats = engine.stats();
        while (stats.rxPackets() < frames && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            stats = engine.stats();
        }
        return stats;
    }

    private static void awaitCounter(String namespace, String device, long atLeast) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (TOPOLOGY.lab().counter(namespace, device, "rx_packets") < atLeast && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }
}
