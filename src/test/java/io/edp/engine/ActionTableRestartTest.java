package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.nic.loopback.TrafficProfile;
import io.edp.engine.nic.loopback.TrafficSink;
import io.edp.engine.slowpath.Route;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * More distinct actions than a worker's action table holds: the miss path clears the full table (and the cache
 * entries pointing into it) in the middle of a burst, and every packet, decided before the clear or after it,
 * leaves once, as its action said.
 */
class ActionTableRestartTest {

    /** Every third flow has a route of its own (a next hop MAC of its own: an action of its own). */
    private static final int OWN_ROUTES = FlowCache.MAX_ACTIONS + 500;
    private static final int FLOWS = 3 * OWN_ROUTES;

    /**
     * One worker (one action table), room for a connection per flow; flow {@code flow}'s destination is 20.0.0.0 +
     * flow * 256 + 1 (the generator's addressing).
     */
    private static EngineConfig config(Mode mode) {
        EngineConfig.Builder b = TestTopology.config(mode).workers(0, 1).conntrackCapacity(1 << 19)
                .route(new Route("16.0.0.0/4", TestTopology.VM_A_MAC, 1, 0));
        for (int flow = 2; flow < FLOWS; flow += 3) {
            int net = 0x14000000 + flow * 256;
            int route = flow / 3;
            b.route(new Route((net >>> 24) + "." + (net >>> 16 & 0xFF) + "." + (net >>> 8 & 0xFF) + ".0/24",
                    String.format("02:10:00:%02x:%02x:%02x", route >>> 16, route >>> 8 & 0xFF, route & 0xFF), 2,
                    20));
        }
        return b.build();
    }

    @ParameterizedTest
    @EnumSource(value = Mode.class, names = {"LEGACY", "EDP_STANDARD"})
    void everyPacketLeavesAsDecidedAcrossAClearOfAFullActionTable(Mode mode) {
        try (Engine engine = Engine.start(config(mode))) {
            TrafficProfile traffic = TestTopology.routed(FLOWS, FLOWS).withAddresses("10.0.0.0", "20.0.0.0", FLOWS);
            Traffic.sendAll(engine, 0, traffic);

            EngineStats stats = engine.stats();
            assertThat(stats.dropped()).as(stats.drops().toString()).isZero();
            TrafficSink vm = TestTopology.nic(engine, 1).sink();
            TrafficSink uplink = TestTopology.nic(engine, 2).sink();
            for (int flow = 0; flow < FLOWS; flow++) {
                boolean own = flow % 3 == 2;
                assertThat(uplink.flowPackets(flow)).as("flow %d out of port 2", flow).isEqualTo(own ? 1 : 0);
                assertThat(vm.flowPackets(flow)).as("flow %d out of port 1", flow).isEqualTo(own ? 0 : 1);
            }
        }
    }
}
