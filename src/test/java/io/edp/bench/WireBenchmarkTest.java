package io.edp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class WireBenchmarkTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void measuresTheWireAtOneFlowAndAtTheEngineBenchsFlowCountAndWritesEveryRound() throws Exception {
        int status = BenchCommand.run(new String[] {"wire", "--rounds=2", "--window-ms=150"}, print(out), print(err));

        assertThat(status).as(text(err)).isZero();
        assertThat(text(out)).contains("round 2/2, 125,000 flows: wire ").containsPattern("(?m)^1 +\\d+\\.\\d \\[")
                .containsPattern("(?m)^125,000 +\\d+\\.\\d \\[");
        JsonNode rows = JsonMapper.builder().build().readTree(Files.readString(Path.of("target", "bench", "wire.json")));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(1).get("flows").asInt()).isEqualTo(EngineCase.FLOWS);
        for (JsonNode row : rows) {
            assertThat(row.get("wire_ns_per_frame_rounds")).hasSize(2)
                    .allSatisfy(ns -> assertThat(ns.asDouble()).isPositive());
            assertThat(row.get("mpps_median").asDouble()).isPositive();
        }
    }

    @Test
    void aBadOptionIsNamedWithTheUsage() {
        assertThat(BenchCommand.run(new String[] {"wire", "--rounds=0"}, print(out), print(err))).isEqualTo(2);
        assertThat(text(err)).contains("bench wire: bad option --rounds=0", WireBenchmark.USAGE);
        assertThat(BenchCommand.run(new String[] {"wire", "--flows=3"}, print(out), print(err))).isEqualTo(2);
        assertThat(text(err)).contains("bench wire: unknown option --flows=3");
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
