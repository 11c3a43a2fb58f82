package io.edp.manager.realization;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import io.edp.engine.Mode;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Engines hold nothing that is not rebuilt from the database: with every engine gone (as after a restart), the
 * start-up reconciliation builds each host's engine again at its desired generation.
 */
class StartupReconciliationTest extends RealizationTest {

    @Autowired
    private EmbeddedEngines embedded;

    @Autowired
    private Reconciler reconciler;

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

        embedded.destroy(); // every engine closed, as if the process had ended
        assertThat(embedded.hosts()).isEmpty();
        reconciler.reconcileEveryHost();

        assertThat(embedded.hosts()).contains(fast, legacy);
        var fastEngine = embedded.engine(fast).orElseThrow();
        assertThat(fastEngine.config().mode()).isEqualTo(Mode.EDP_STANDARD);
        assertThat(fastEngine.config().flowCache().capacity()).isEqualTo(4096);
        assertThat(fastEngine.config().vnics()).hasSize(2);
        assertThat(embedded.engine(legacy).orElseThrow().config().mode()).isEqualTo(Mode.LEGACY);
        for (var host : new java.util.UUID[] {fast, legacy}) {
            var status = realization(host);
            assertThat(status.read("$.state", String.class)).isEqualTo("SUCCESS");
            assertThat(status.read("$.realizedGeneration", Long.class)).isEqualTo(desiredGeneration(host));
            assertThat(Instant.parse(status.read("$.lastSuccessAt", String.class))).isAfter(beforeRestart);
        }
    }
}
