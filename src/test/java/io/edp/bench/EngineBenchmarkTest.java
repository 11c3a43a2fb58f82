package io.edp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** bench engine as a user runs it: a JVM that forks a JVM per case and round, with its own flags. */
class EngineBenchmarkTest {

    @TempDir
    Path workingDirectory;

    @Test
    void casesRunInterleavedInJvmsOfTheirOwnAndEveryRoundIsKept() throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Dedp.bench.flag=kept", "-cp", System.getProperty("java.class.path"),
                "io.edp.EdpApplication", "bench", "engine", "--quick", "--rounds=2", "--cases=floor,legacy-desc128-64"));
        Process process = new ProcessBuilder(command).directory(workingDirectory.toFile()).redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();

        assertThat(output).contains("round 1/2, case 1/2 (floor): EDP_STANDARD 64 B, flows 1 ...")
                .contains("round 2/2, case 2/2 (legacy-desc128-64): LEGACY 64 B, flows 125,000 ...");
        JsonNode report = JsonMapper.builder().build()
                .readTree(Files.readString(workingDirectory.resolve("target/bench/engine.json")));
        assertThat(report.get("launcher").toString()).contains("-Dedp.bench.flag=kept");
        List<String> order = new ArrayList<>();
        for (JsonNode run : report.get("runs")) {
            order.add(run.get("round").asInt() + ":" + run.get("case_id").asString());
            assertThat(run.get("measurement").get("packets").asLong()).isPositive();
        }
        assertThat(order).containsExactly("1:floor", "1:legacy-desc128-64", "2:floor", "2:legacy-desc128-64");
        JsonNode legacy = report.get("summary").get(1);
        assertThat(legacy.get("descriptor_bytes").asInt()).isEqualTo(128);
        JsonNode workerNs = legacy.get("figures").get("worker_ns_per_packet");
        assertThat(workerNs.get("median").asDouble()).isBetween(workerNs.get("min").asDouble(),
                workerNs.get("max").asDouble());
    }
}
