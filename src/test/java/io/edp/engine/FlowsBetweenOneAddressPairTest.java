package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Many connections between two endpoints (a load balancer and its backend, a client and its database) is
 * ordinary traffic: flows that differ only in their ports must each get their own flow-cache entry and hit it.
 */
class FlowsBetweenOneAddressPairTest {

    /** 95 % of the default cache; beyond 60,000 flows the generator varies the destination port too. */
    private static final int FLOWS = 125_000;

    @Test
    void everyFlowBetweenOnePairOfAddressesGetsItsOwnEntryAndHits() {
        EngineConfig config = TestTopology.config(Mode.EDP_STANDARD).workers(0, 1).mbufs(16_384).build();
        try (Engine engine = Engine.start(config)) {
            Traffic.sendAll(engine, 0, TestTopology.routed(FLOWS, 2L * FLOWS).withSources(1)
                    .withAddresses("10.0.0.1", "10.128.0.0", 1));
            EngineStats.FlowCacheStats cache = engine.stats().flowCache();
            assertThat(cache.capacity()).isEqualTo(FlowCacheConfig.DEFAULT.capacity());
            // 95 % full: the displacement search may, rarely, find no path and evict
            assertThat(cache.evictions()).isLessThanOrEqualTo(FLOWS / 100);
            assertThat(cache.entries()).as("distinct flows held").isBetween(FLOWS * 99L / 100, (long) FLOWS);
            assertThat(cache.hits()).as("second packets that hit").isGreaterThanOrEqualTo(FLOWS * 99L / 100);
        }
    }
}
