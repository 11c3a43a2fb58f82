package io.edp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.edp.manager.TestDatabase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bench fleet} at its smallest: two manager replicas in JVMs of their own, five simulated agents in one more,
 * three changes and a replica killed; its JSON holds every figure, each within what it can be.
 */
class BenchFleetTest {

    @Test
    void aTinyFleetConvergesOnEveryChangeAndAfterAReplicaIsKilled() throws Exception {
        var printed = new ByteArrayOutputStream();
        var out = new PrintStream(printed, true, StandardCharsets.UTF_8);

        int status = FleetBenchmark.run(List.of("--agents", "5", "--replicas", "2", "--changes", "3",
                "--warm-up", "1", "--embedded", "2"), TestDatabase.environment(), out, out);

        var output = printed.toString(StandardCharsets.UTF_8);
        assertThat(status).as(output).isZero();
        var fleet = JsonMapper.builder().build().readTree(Files.readString(Path.of("target/bench/fleet.json")));
        assertThat(fleet.get("agents").asInt()).isEqualTo(5);
        assertThat(fleet.get("replicas").asInt()).isEqualTo(2);
        assertThat(fleet.get("changes").asInt()).isEqualTo(3);
        assertThat(fleet.get("warm_up_ms")).as("the warm-up change's figure, kept out of the percentiles").hasSize(1);
        assertThat(fleet.get("warm_up_ms").get(0).asLong()).isPositive().isLessThan(120_000);
        double p50 = fleet.get("p50_ms").asDouble();
        double p99 = fleet.get("p99_ms").asDouble();
        double max = fleet.get("max_ms").asDouble();
        assertThat(p50).isPositive().isLessThanOrEqualTo(p99);
        assertThat(p99).isLessThanOrEqualTo(max).isLessThan(120_000);
        assertThat(fleet.get("replica_kill_converge_s").asDouble()).isPositive().isLessThan(120);
        assertThat(fleet.get("agent_placement").get("hosts").asInt()).isEqualTo(5);
        assertThat(fleet.get("embedded_placement").get("hosts").asInt()).isEqualTo(2);
        assertThat(fleet.get("agent_launcher").get("threads").asInt()).isPositive();
        assertThat(output).contains("warm-up change 1/1", "change 3/3", "replica 2 killed")
                .containsPattern("\\n5 +2 +3 ");
    }

    @Test
    void withoutADatabaseOrWithBadOptionsItSaysWhyInOneLine() {
        var printed = new ByteArrayOutputStream();
        var out = new PrintStream(printed, true, StandardCharsets.UTF_8);

        assertThat(FleetBenchmark.run(List.of("--agents", "5"), Map.of(), out, out)).isEqualTo(2);
        assertThat(FleetBenchmark.run(List.of("--agents", "0"), TestDatabase.environment(), out, out)).isEqualTo(2);
        assertThat(FleetBenchmark.run(List.of("--swarm", "5"), TestDatabase.environment(), out, out)).isEqualTo(2);

        assertThat(printed.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "bench fleet: set SPRING_DATASOURCE_URL (and SPRING_DATASOURCE_USERNAME/PASSWORD) to the PostgreSQL "
                        + "database the replicas share", FleetBenchmark.USAGE, FleetBenchmark.USAGE);
    }
}
