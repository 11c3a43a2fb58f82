package io.edp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.engine.tlb.QueueId;
import io.edp.engine.tlb.QueueMove;
import io.edp.engine.tlb.TlbConfig;
import io.edp.engine.tlb.TlbDecision;
import io.edp.engine.tlb.Trigger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineConfigFileTest {

    private static final String PORTS = "\"ports\": [{\"id\": 1, \"driver\": \"loopback\", \"rxQueues\": 4}]";

    @TempDir
    Path directory;

    @Test
    void withoutATlbSectionTheBalancerRunsWithTheSeedDefaults() throws IOException {
        EngineConfigFile config = EngineConfigFile.read(write("{" + PORTS + "}"));

        assertThat(config.engine().tlb()).isEqualTo(TlbConfig.DEFAULTS);
    }

    @Test
    void tlbSettingsAreReadInSecondsAndPercents() throws IOException {
        EngineConfigFile config = EngineConfigFile.read(write("""
                {%s, "tlb": {"enabled": true, "intervalSeconds": 2, "thresholdPercent": 80,
                             "improvementPercent": 5, "minSecondsBetweenMoves": 12}}""".formatted(PORTS)));

        assertThat(config.engine().tlb().interval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.engine().tlb().threshold()).isEqualTo(0.80);
        assertThat(config.engine().tlb().improvementThreshold()).isEqualTo(0.05);
        assertThat(config.engine().tlb().minTimeBetweenMoves()).isEqualTo(Duration.ofSeconds(12));
    }

    @Test
    void tlbMistakesNameTheField() throws IOException {
        assertThatThrownBy(() -> EngineConfigFile.read(
                write("{%s, \"tlb\": {\"thresholdPercent\": 170}}".formatted(PORTS))))
                .hasMessageStartingWith("tlb: tlb.threshold: must be in (0, 1]");
        assertThatThrownBy(() -> EngineConfigFile.read(write("{%s, \"tlb\": {\"interval\": 4}}".formatted(PORTS))))
                .hasMessageStartingWith("unknown field 'tlb.interval'");
        assertThatThrownBy(() -> EngineConfigFile.read(write("{%s, \"tlb\": {\"enabled\": \"yes\"}}".formatted(PORTS))))
                .hasMessage("tlb.enabled must be true or false: \"yes\"");
    }

    @Test
    void aTlbDecisionIsOneLineWithItsPeaksAndMoves() {
        var before = new TreeMap<Integer, Double>(java.util.Map.of(0, 0.95, 1, 0.10));
        var after = new TreeMap<Integer, Double>(java.util.Map.of(0, 0.55, 1, 0.50));
        var decision = new TlbDecision(Instant.EPOCH, Trigger.OVERLOAD, TlbDecision.Outcome.APPLIED, before, after,
                List.of(new QueueMove(new QueueId(1, 3), 0, 1, 0.40)));

        assertThat(StatsLine.of(decision))
                .isEqualTo("tlb: OVERLOAD -> APPLIED, peak 95% -> 55%, port 1 queue 3 w0->w1");
    }

    private Path write(String json) throws IOException {
        return Files.writeString(Files.createTempFile(directory, "engine", ".json"), json);
    }
}
