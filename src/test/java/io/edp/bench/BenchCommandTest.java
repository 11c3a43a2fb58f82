package io.edp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.EngineConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import io.edp.engine.Mode;
import io.edp.engine.slowpath.Verdict;
import org.junit.jupiter.api.Test;

class BenchCommandTest {

    @Test
    void unknownBenchmarksAndOptionsExitWithUsage() {
        assertThat(BenchCommand.run(new String[] {})).isEqualTo(2);
        assertThat(BenchCommand.run(new String[] {"disk"})).isEqualTo(2);
        assertThat(BenchCommand.run(new String[] {"engine", "--fast"})).isEqualTo(2);
        assertThat(BenchCommand.run(new String[] {"engine", "--rounds=0"})).isEqualTo(2);
        assertThat(BenchCommand.run(new String[] {"engine", "--cases=legacy-64,warp"})).isEqualTo(2);
        assertThat(BenchCommand.run(new String[] {"afpacket", "--peer", "vpp"})).isEqualTo(2);
        assertThat(BenchCommand.run(new String[] {"afpacket", "--peer", "ovs", "--drivers-only"})).isEqualTo(2);
        assertThat(BenchCommand.run(new String[] {"afpacket", "--rounds", "3"})).isEqualTo(2);
        assertThat(BenchCommand.run(new String[] {"afpacket", "--frames", "32"})).isEqualTo(2);
        assertThat(BenchCommand.run(new String[] {"rules", "--rounds=0"})).isEqualTo(2);
        assertThat(BenchCommand.run(new String[] {"rules", "--seconds=3"})).isEqualTo(2);
    }

    @Test
    void theRuleBenchmarkPrintsEveryCaseItMeasuredAndWritesItsRounds() throws Exception {
        var printed = new ByteArrayOutputStream();
        var out = new PrintStream(printed, true, StandardCharsets.UTF_8);

        assertThat(BenchCommand.run(new String[] {"rules", "--rounds=2", "--window-ms=5"}, out, out)).isZero();

        assertThat(printed.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.matches("(engine|varied) +\\d+ +\\d+ .*"))).hasSize(6);
        assertThat(Files.readString(Path.of("target/bench/rules.json")))
                .contains("\"rules\": 10000", "\"ns_per_lookup_rounds\"");
    }

    @Test
    void theEngineBenchmarkRunsTheSeedProfile() {
        EngineConfig config = EngineCase.byId("standard-64").config();
        assertThat(config.mode()).isEqualTo(Mode.EDP_STANDARD);
        assertThat(config.firewallRules()).hasSize(EngineCase.RULES);
        assertThat(config.routes()).hasSize(EngineCase.ROUTES + 1);
        assertThat(config.workerCount()).isEqualTo(1);
        assertThat(config.flowCache().capacity()).isEqualTo(131_072);
        assertThat(config.flowCache().verifierSampleRate()).isZero();
    }

    @Test
    void theSlowPathCasesScaleTheRulesAndDropTheTrafficWithTheLast() {
        for (int rules : new int[] {10, 1_000, 10_000}) {
            EngineConfig config = EngineCase.byId("slowpath-" + rules).config();
            assertThat(config.mode()).isEqualTo(Mode.LEGACY);
            assertThat(config.firewallRules()).hasSize(rules);
            assertThat(config.firewallRules().getLast().verdict()).isEqualTo(Verdict.DROP);
        }
        assertThat(EngineCase.byId("standard-64").config().firewallRules().getLast().verdict())
                .isEqualTo(Verdict.ALLOW);
    }

    @Test
    void theVerifiedCaseIsTheStandardOneCheckingOneHitInAThousand() {
        EngineConfig plain = EngineCase.byId("standard-64").config();
        EngineConfig verified = EngineCase.byId("standard-64-verified").config();
        assertThat(verified.flowCache().verifierSampleRate()).isEqualTo(1_000);
        assertThat(verified.toBuilder().flowCache(plain.flowCache()).build()).isEqualTo(plain);
    }
}
