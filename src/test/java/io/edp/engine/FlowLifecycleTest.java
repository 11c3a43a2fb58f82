package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How flows meet the fast path over time, with an injected clock instead of sleeping. */
class FlowLifecycleTest {

    private static final int FLOWS = 100;

    @Test
    void expiredEntriesAreRevalidatedAndSweptAway() {
        ManualClock clock = new ManualClock(1_000_000_000L);
        EngineConfig config = TestTopology.config(Mode.EDP_STANDARD)
                .flowCache(FlowCacheConfig.DEFAULT.withCapacity(1024)).build();
        try (Engine engine = Engine.start(config, NicDrivers.withLoopback(), clock)) {
            Traffic.sendAll(engine, 0, TestTopology.routed(FLOWS, FLOWS * 2L));
            assertThat(engine.stats().flowCache().insertions()).isEqualTo(FLOWS);
            assertThat(engine.stats().flowCache().hits()).isEqualTo(FLOWS);

            // past the expiry window each entry is either hit while expired (revalidated through the IOChain)
            // or retired first by the worker's sweep (then missed and installed again)
            clock.advance(Duration.ofSeconds(151));
            Traffic.sendAll(engine, 0, TestTopology.routed(FLOWS, FLOWS).withFirstFlowId(1_000));
            EngineStats stats = engine.stats();
            assertThat(stats.flowCache().revalidations() + stats.flowCache().expirations()).isEqualTo(FLOWS);
            assertThat(stats.flowCache().hits()).isEqualTo(FLOWS);
            assertThat(stats.flowCache().slowPath()).isEqualTo(2 * FLOWS);
            assertThat(stats.flowCache().entries()).isEqualTo(FLOWS);

            clock.advance(Duration.ofSeconds(151));
            Await.until("the sweep to retire every entry", () -> engine.stats().flowCache().entries() == 0,
                    Duration.ofSeconds(20));
            assertThat(engine.stats().flowCache().expirations()).isEqualTo(stats.flowCache().expirations() + FLOWS);
        }
    }

    @Test
    void e1000PortsAlwaysTakeTheIoChain() {
        EngineConfig config = TestTopology.config(Mode.EDP_STANDARD)
                .vnics(java.util.List.of(new VnicConfig("vm-a-eth0", "vm-a", 1, TestTopology.VM_A_MAC, 10,
                        AdapterType.E1000)))
                .build();
        try (Engine engine = Engine.start(config)) {
            // from the E1000 VM to the router, routed out of uplink 2
            Traffic.sendAll(engine, 1, TrafficProfile.udp().withFlows(10).withPackets(1_000)
                    .withMacs(TestTopology.VM_A_MAC, EngineConfig.DEFAULT_ROUTER_MAC)
                    .withAddresses("10.0.0.0", "10.128.0.0", 4));
            EngineStats stats = engine.stats();
            assertThat(TestTopology.nic(engine, 2).sink().packets()).isEqualTo(1_000);
            assertThat(stats.flowCache().hits()).isZero();
            assertThat(stats.flowCache().slowPath()).isEqualTo(1_000);
        }
    }

    @Test
    void tcpSynFinAndRstAlwaysTakeTheIoChain() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            // the generator opens every TCP flow with a SYN, then sends ACKs
            Traffic.sendAll(engine, 0, TestTopology.routed(50, 500).withMix(0, 100, 0));
            EngineStats stats = engine.stats();
            // each SYN bypasses the cache; the first ACK misses and installs; the rest hit
            assertThat(stats.flowCache().slowPath()).isEqualTo(100);
            assertThat(stats.flowCache().hits()).isEqualTo(400);
            assertThat(stats.connections()).isEqualTo(50);
        }
    }
}
