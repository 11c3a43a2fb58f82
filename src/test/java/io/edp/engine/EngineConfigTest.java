package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.engine.nic.PortConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EngineConfigTest {

    @Test
    void nsxModeNamesAreAcceptedAndBareStandardIsRejectedAsAmbiguous() {
        assertThat(Mode.parse("ENS")).isEqualTo(Mode.EDP_DEDICATED);
        assertThat(Mode.parse("ens_interrupt")).isEqualTo(Mode.EDP_STANDARD);
        assertThat(Mode.parse("legacy")).isEqualTo(Mode.LEGACY);
        assertThatThrownBy(() -> Mode.parse("STANDARD")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("LEGACY").hasMessageContaining("EDP_STANDARD");
        assertThatThrownBy(() -> Mode.parse("turbo")).hasMessageContaining("unknown");
    }

    @Test
    void invalidSettingsNameTheirField() {
        assertThatThrownBy(() -> TestTopology.config(Mode.LEGACY)
                .flowCache(FlowCacheConfig.DEFAULT.withCapacity(100_000)).build())
                .hasMessageContaining("flowCache.capacity");
        assertThatThrownBy(() -> new FlowCacheConfig(1024, Duration.ofSeconds(150), Duration.ofSeconds(90)))
                .hasMessageContaining("expiry");
        assertThatThrownBy(() -> TestTopology.config(Mode.LEGACY)
                .port(PortConfig.loopback(0, "again", 0, 1, 1)).build())
                .hasMessageContaining("ports: duplicate id 0");
        assertThatThrownBy(() -> TestTopology.config(Mode.LEGACY)
                .vnic(new VnicConfig("ghost", "vm-x", 9, "02:00:00:00:00:09", 0, AdapterType.E1000)).build())
                .hasMessageContaining("vnics[ghost].port");
        assertThatThrownBy(() -> new VnicConfig("bad", "vm", 1, "not-a-mac", 0, AdapterType.VMXNET3))
                .hasMessageContaining("vnics[bad].mac");
        assertThatThrownBy(() -> TestTopology.config(Mode.LEGACY).workers(0, 0).build())
                .hasMessageContaining("workersPerNumaNode");
        assertThatThrownBy(() -> PortConfig.loopback(2000, "x", 0, 1, 1)).hasMessageContaining("ports[id=2000].id");
        assertThatThrownBy(() -> new PortConfig(1, "x", 0, 0, 1, "loopback", Map.of()))
                .hasMessageContaining("ports[id=1].rxQueues");
    }

    @Test
    void unknownDriversAndBadDriverOptionsAreReportedByPort() {
        EngineConfig unknown = EngineConfig.builder().port(new PortConfig(0, "p", 0, 1, 1, "dpdk", Map.of())).build();
        assertThatThrownBy(() -> Engine.start(unknown)).hasMessageContaining("ports[id=0].driver")
                .hasMessageContaining("loopback");
        EngineConfig badRing = EngineConfig.builder()
                .port(new PortConfig(0, "p", 0, 1, 1, "loopback", Map.of("ringSize", "1000"))).build();
        assertThatThrownBy(() -> Engine.start(badRing)).hasMessageContaining("ports[id=0].driverOptions.ringSize");
    }

    @Test
    void applyRejectsChangesToRunningPortsOrWorkersAndKeepsTheRunningGeneration() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            EngineConfig changed = engine.config().toBuilder().ports(java.util.List.of(
                    PortConfig.loopback(0, "uplink0", 0, 4, 2), PortConfig.loopback(1, "vm-a-eth0", 0, 1, 2),
                    PortConfig.loopback(2, "uplink1", 0, 1, 2))).build();
            assertThatThrownBy(() -> engine.apply(changed)).hasMessageContaining("ports[id=0]");
            assertThatThrownBy(() -> engine.apply(engine.config().toBuilder().workers(0, 2).build()))
                    .hasMessageContaining("workersPerNumaNode");
            assertThat(engine.generation()).isEqualTo(1);
            assertThat(engine.apply(engine.config().toBuilder().mode(Mode.EDP_DEDICATED).build())).isEqualTo(2);
        }
    }

    @Test
    void legacyRunsOnItsOwnDescriptorsUnlessToldToUseEdpOnes() {
        assertThat(TestTopology.config(Mode.LEGACY).build().mbufDescriptorBytes()).isEqualTo(256);
        assertThat(TestTopology.config(Mode.LEGACY).descriptorBytes(128).build().mbufDescriptorBytes())
                .isEqualTo(128);
        assertThat(TestTopology.config(Mode.EDP_STANDARD).build().mbufDescriptorBytes()).isEqualTo(128);
        assertThatThrownBy(() -> TestTopology.config(Mode.LEGACY).descriptorBytes(64).build())
                .hasMessageContaining("descriptorBytes");
    }
}
