package io.edp.manager.realization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.edp.EdpApplication;
import io.edp.engine.Mode;
import io.edp.manager.engines.FaultInjection;
import io.edp.manager.engines.HostEngines;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Engines hold nothing that is not rebuilt from the database: with every engine gone (as after a restart), the
 * start-up reconciliation builds each host's engine again at its desired generation; and a second manager
 * started on the same database builds its own engines for every host as it starts.
 */
class StartupReconciliationTest extends RealizationTest {

    @Autowired
    private Reconciler reconciler;

    @Autowired
    private HikariDataSource database;

    @Autowired
    private FaultInjection.FaultyEngines pushes;

    @Autowired
    private RealizationProperties properties;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aRestartPushesAFewHundredHostsAtMostParallelismAtOnceAndAllSucceed() throws Exception {
        int hostCount = 200;
        for (int i = 0; i < hostCount; i++) {
            createHost("esx-" + i); // no NICs: their engines cost nothing, the pushes still run one by one
        }
        await("every host to be realized", () -> count("state = 'SUCCESS'"), n -> n == hostCount);
        int parallelism = properties.parallelism();

        pushes.holdPushes();
        pushes.stopEveryEngine();
        var reconciliation = CompletableFuture.runAsync(reconciler::reconcileEveryHost);
        try {
            await("pushes to fill every slot", pushes::pushesInFlight, n -> n >= parallelism);
            // the hosts waiting their turn say so; none is IN_PROGRESS without saying why
            await("the others to wait for a push slot", () -> count("state = 'PENDING' AND failure_reason = '"
                    + Reconciler.STARTUP_WAIT + "'"), n -> n == hostCount - parallelism);
            assertThat(count("state = 'IN_PROGRESS' AND failure_reason = '" + Reconciler.STARTUP_PUSH + "'"))
                    .isEqualTo(parallelism);
            mvc.perform(get("/actuator/health/readiness").with(viewer()))
                    .andExpect(status().isServiceUnavailable())
                    .andExpect(jsonPath("$.components.startupReconciliation.status").value("OUT_OF_SERVICE"));
        } finally {
            pushes.releasePushes();
        }
        reconciliation.get(60, TimeUnit.SECONDS);

        assertThat(pushes.maxPushesInFlight()).isEqualTo(parallelism);
        // a host the regular sweep claimed meanwhile records its result a moment after the last slot frees
        await("every host realized again", () -> count("state = 'SUCCESS' AND failure_reason IS NULL"),
                n -> n == hostCount);
        mvc.perform(get("/actuator/health/readiness")).andExpect(status().isOk());
    }

    private long count(String condition) {
        return jdbc.queryForObject("SELECT count(*) FROM host_realization WHERE " + condition, Long.class);
    }

    @Test
    void everyHostsEngineIsRebuiltAtItsDesiredGeneration() throws Exception {
        var fast = createHostWithNicAndTwoVms("esx-fast");
        var legacy = createHost("esx-legacy");
        create("/api/v1/hosts/" + legacy + "/pnics", """
                {"name": "vmnic0", "numaNode": 1, "speedMbps": 10000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");
        long fastGeneration = setEdp(fast, "{\"mode\": \"ENS_INTERRUPT\", \"flowCacheSize\": 4096}");
        awaitRealized(fast, fastGeneration);
        awaitRealized(legacy, desiredGeneration(legacy));
        var beforeRestart = Instant.now();

        pushes.stopEveryEngine(); // every engine closed, as if the process had ended
        assertThat(pushes.hosts()).isEmpty();
        reconciler.reconcileEveryHost();

        assertThat(pushes.hosts()).contains(fast, legacy);
        var fastEngine = pushes.engine(fast).orElseThrow();
        assertThat(fastEngine.config().mode()).isEqualTo(Mode.EDP_STANDARD);
        assertThat(fastEngine.config().flowCache().capacity()).isEqualTo(4096);
        assertThat(fastEngine.config().vnics()).hasSize(2);
        assertThat(pushes.engine(legacy).orElseThrow().config().mode()).isEqualTo(Mode.LEGACY);
        for (var host : new UUID[] {fast, legacy}) {
            assertRebuiltAtDesiredGeneration(host, beforeRestart);
        }
    }

    @Test
    void aNewManagerOnTheSameDatabaseBuildsEveryHostsEngineAtStartUp() throws Exception {
        var hostId = createHostWithNicAndTwoVms("esx-restart");
        long generation = setEdp(hostId, "{\"mode\": \"EDP_STANDARD\", \"flowCacheSize\": 8192}");
        awaitRealized(hostId, generation);
        var beforeRestart = Instant.now();

        try (var restarted = new SpringApplicationBuilder(EdpApplication.class).run(
                "--spring.datasource.url=" + database.getJdbcUrl(),
                "--spring.datasource.username=" + database.getUsername(),
                "--spring.datasource.password=" + (database.getPassword() == null ? "" : database.getPassword()),
                "--server.port=0", "--edp.security.operator.password={noop}restart",
                "--edp.engines.mbufs=4096", "--edp.engines.real-drivers=false")) {
            var engines = restarted.getBean(HostEngines.class);
            var engine = await("the new manager to build the host's engine", () -> engines.engine(hostId),
                    java.util.Optional::isPresent).orElseThrow();

            assertThat(engine.config().mode()).isEqualTo(Mode.EDP_STANDARD);
            assertThat(engine.config().flowCache().capacity()).isEqualTo(8192);
            assertThat(engine.config().ports()).hasSize(3);
            assertRebuiltAtDesiredGeneration(hostId, beforeRestart);
        }
    }

    private void assertRebuiltAtDesiredGeneration(UUID host, Instant restartedAt) throws Exception {
        var status = await("host " + host + " to be realized after the restart", () -> realization(host),
                s -> s.read("$.state").equals("SUCCESS")
                        && Instant.parse(s.read("$.lastSuccessAt", String.class)).isAfter(restartedAt));
        assertThat(status.read("$.realizedGeneration", Long.class)).isEqualTo(desiredGeneration(host));
    }
}
