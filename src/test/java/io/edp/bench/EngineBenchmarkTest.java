package io.edp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
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
        String output = benchEngine("--rounds=2", "--cases=floor,legacy-desc128-64");

        assertThat(output).contains("round 1/2, case 1/2 (floor): EDP_STANDARD 64 B, flows 1 ...")
                .contains("round 2/2, case 2/2 (legacy-desc128-64): LEGACY 64 B, flows 125,000 ...");
        JsonNode report = JsonMapper.builder().build()
                .readTree(Files.readString(workingDirectory.resolve("target/bench/engine.json")));
        assertThat(report.get("launcher").toString()).contains("-Dedp.bench.flag=kept");
        List<String> order = new ArrayList<>();
        boolean anyWireBound = false;
        for (JsonNode run : report.get("runs")) {
            order.add(run.get("round").asInt() + ":" + run.get("case_id").asString());
            double perPoll = run.get("measurement").get("packets_per_poll").asDouble();
            boolean wireBound = run.get("wire_bound").asBoolean();
            assertThat(wireBound).as("wire-bound at %.1f frames a poll", perPoll)
                    .isEqualTo(perPoll < EngineBenchmark.WIRE_BOUND_BELOW);
            anyWireBound |= wireBound;
            assertThat(run.get("measurement").get("packets").asLong()).isPositive();
            assertThat(run.get("measurement").get("jit_traps").asLong()).as("the window's traps, counted")
                    .isNotNegative();
            double roundTrip = run.get("measurement").get("core_round_trip_ns").asDouble();
            if (run.get("measurement").get("worker_cpus").asString().isEmpty()) {
                assertThat(roundTrip).as("threads not pinned apart: no round trip").isEqualTo(-1);
            } else {
                assertThat(roundTrip).as("the pinned CPUs' round trip").isPositive();
            }
        }
        assertThat(order).containsExactly("1:floor", "1:legacy-desc128-64", "2:floor", "2:legacy-desc128-64");
        assertThat(Pattern.compile("WIRE-BOUND: \\d+\\.\\d frames a poll").matcher(output).find())
                .as("progress lines flag the runs where the worker waited for frames").isEqualTo(anyWireBound);
        JsonNode legacy = report.get("summary").get(1);
        assertThat(legacy.get("descriptor_bytes").asInt()).isEqualTo(128);
        JsonNode workerNs = legacy.get("figures").get("worker_ns_per_packet");
        assertThat(workerNs.get("median").asDouble()).isBetween(workerNs.get("min").asDouble(),
                workerNs.get("max").asDouble());
    }

    @Test
    void theIdleWorkerOfEachModeIsMeasuredOnceTheTrafficStops() throws Exception {
        String output = benchEngine("--rounds=1", "--cases=standard-64,dedicated-64");

        assertThat(output).contains("| mode | idle % of a core | wake-up p50 µs | wake-up p99 µs |")
                .contains("| EDP_DEDICATED |").contains("busy-polls |");
        JsonNode runs = JsonMapper.builder().build()
                .readTree(Files.readString(workingDirectory.resolve("target/bench/engine.json"))).get("runs");
        JsonNode standard = runs.get(0).get("measurement").get("idle");
        assertThat(standard.get("core_percent").asDouble()).as("a sleeping worker, %% of a core").isLessThan(1);
        assertThat(standard.get("wake").get("samples").asInt()).isPositive();
        assertThat(standard.get("wake").get("p50_micros").asDouble()).isPositive()
                .isLessThanOrEqualTo(standard.get("wake").get("p99_micros").asDouble());
        JsonNode dedicated = runs.get(1).get("measurement").get("idle");
        assertThat(dedicated.get("core_percent").asDouble()).as("a busy-polling worker, %% of a core").isGreaterThan(1);
        assertThat(dedicated.get("wake").isNull()).isTrue();
    }

    /** Runs {@code bench engine --quick} with {@code options} in the working directory; returns what it printed. */
    private String benchEngine(String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Dedp.bench.flag=kept", "-cp", System.getProperty("java.class.path"),
                "io.edp.EdpApplication", "bench", "engine", "--quick"));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command).directory(workingDirectory.toFile()).redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }
}
