package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.engine.config.ConfigRules;
import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.worker.Worker;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigRulesTest {

    @Test
    void moreThanSixtyFourWorkersInAllBreakTheWorkersRule() {
        var violations = ConfigRules.workers(Map.of(0, 64, 1, 64, 2, 64, 3, 64));

        assertThat(violations).containsExactly(
                new ConfigRules.Violation("workersPerNumaNode", "total workers must be 1..64: 256"));
    }

    @Test
    void theConfigurationRefusesWhatTheRulesReport() {
        var config = TestTopology.config(Mode.EDP_STANDARD).workers(0, 40).workers(1, 40);

        assertThatThrownBy(config::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(ConfigRules.workers(Map.of(0, 40, 1, 40)).getFirst().toString());
    }

    @Test
    void everyBrokenTlbRuleIsReportedWithItsField() {
        var violations = ConfigRules.tlb(Duration.ZERO, 1.5, 1.0);

        assertThat(violations).extracting(ConfigRules.Violation::field)
                .containsExactly("tlb.interval", "tlb.threshold", "tlb.improvementThreshold");
    }

    @Test
    void validSettingsBreakNoRule() {
        assertThat(ConfigRules.workers(Map.of(0, 2, 1, 0))).isEmpty();
        assertThat(ConfigRules.flowCacheCapacity(FlowCache.MAX_CAPACITY)).isEmpty();
        assertThat(ConfigRules.expiryWindow(Duration.ofSeconds(90), Duration.ofSeconds(150))).isEmpty();
        assertThat(ConfigRules.memory(256, 1024)).isEmpty();
        assertThat(ConfigRules.memory(ConnectionTable.MAX_CAPACITY, 1024)).isEmpty();
        assertThat(ConfigRules.memory(ConnectionTable.MAX_CAPACITY * 2, 1024)).extracting(ConfigRules.Violation::field)
                .containsExactly("conntrackCapacity");
        assertThat(ConfigRules.flowCacheCapacity(3)).extracting(ConfigRules.Violation::field)
                .containsExactly("flowCache.capacity");
    }

    @Test
    void theVerifierSampleRateIsOffOrOneHitInAtMostAMillion() {
        assertThat(ConfigRules.verifierSampleRate(0)).isEmpty();
        assertThat(ConfigRules.verifierSampleRate(1)).isEmpty();
        assertThat(ConfigRules.verifierSampleRate(ConfigRules.MAX_VERIFIER_SAMPLE_RATE)).isEmpty();
        assertThat(ConfigRules.verifierSampleRate(-1)).extracting(ConfigRules.Violation::field)
                .containsExactly("flowCache.verifierSampleRate");
        assertThat(ConfigRules.verifierSampleRate(ConfigRules.MAX_VERIFIER_SAMPLE_RATE + 1)).hasSize(1);
        assertThatThrownBy(() -> FlowCacheConfig.DEFAULT.withVerifierSampleRate(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("verifierSampleRate");
    }

    @Test
    void theMemoryEstimateChargesEachWorkerItsFlowCacheAndFixedTables() {
        var one = TestTopology.config(Mode.EDP_STANDARD).workers(0, 1)
                .flowCache(FlowCacheConfig.DEFAULT.withCapacity(1 << 16)).build();
        var three = one.toBuilder().workers(0, 3).build();

        assertThat(three.memoryBytes() - one.memoryBytes())
                .isEqualTo(2 * (FlowCache.bytes(1 << 16) + Worker.fixedBytes()));
        assertThat(FlowCache.bytes(1 << 16)).isGreaterThanOrEqualTo((1L << 16) * 64);
    }

    @Test
    void eachLoopbackPortIsChargedItsTrafficSink() {
        var one = TestTopology.config(Mode.EDP_STANDARD).build();
        var more = one.toBuilder().port(PortConfig.loopback(7, "extra", 0, 1, 1)).build();

        assertThat(more.memoryBytes() - one.memoryBytes()).isEqualTo(LoopbackNic.bytes());
        assertThat(LoopbackNic.bytes()).isGreaterThanOrEqualTo(LoopbackNic.DEFAULT_SINK_FLOWS * (long) Long.BYTES);
    }

    @Test
    void legacyBuffersCostTheirLargerDescriptor() {
        var edp = EngineConfig.memoryBytes(Mode.EDP_STANDARD, 1, 4, 256, 1024, 0);
        var legacy = EngineConfig.memoryBytes(Mode.LEGACY, 1, 4, 256, 1024, 0);

        assertThat(legacy - edp)
                .isEqualTo(1024L * (Mode.LEGACY.descriptorBytes() - Mode.EDP_STANDARD.descriptorBytes()));
    }
}
