package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.LockstepEngines.Outcome;
import io.edp.engine.ModelEvent.Advance;
import io.edp.engine.ModelEvent.ApplyRules;
import io.edp.engine.ModelEvent.Send;
import io.edp.engine.ModelNetwork.CacheSetting;
import io.edp.engine.ModelNetwork.Flow;
import io.edp.engine.ModelNetwork.Pair;
import io.edp.engine.ModelNetwork.Protocol;
import io.edp.engine.ModelNetwork.Tagging;
import io.edp.engine.verifier.Mismatch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The live verifier: checking every fast-path hit of a stateful firewall's traffic finds no mismatch and changes
 * nothing the engine does (same frames out, same connections, same cache and slow-path counts as without it);
 * a cache corrupted on purpose is caught, with both decisions and the flow in the engine's stats.
 */
class FlowVerifierTest {

    private static final CacheSetting CACHE = new CacheSetting(1024, 90, 150);

    /** 32 UDP and 32 TCP conversations A → B; A may open connections to B (rule 9), nothing else is allowed. */
    private static List<Flow> flows() {
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            flows.add(new Flow(Protocol.UDP, Pair.A_B, false, i));
            flows.add(new Flow(Protocol.TCP, Pair.A_B, i % 2 == 1, i));
        }
        return flows;
    }

    private static EngineConfig config(int sampleRate) {
        EngineConfig config = ModelNetwork.config(Mode.EDP_STANDARD, List.of(8, 7), ModelNetwork.INITIAL_ROUTES, CACHE);
        return config.toBuilder().flowCache(config.flowCache().withVerifierSampleRate(sampleRate)).build();
    }

    /** Handshakes, then both directions of every flow each second for a minute, a rule change midway. */
    private static List<String> converse(SequenceRun run, int flowCount) {
        List<String> outcomes = new ArrayList<>();
        for (int flow = 0; flow < flowCount; flow++) {
            if (run.flow(flow).protocol() == Protocol.TCP) {
                outcomes.add(run.send(send(flow, false, 1))[0].toString());
                outcomes.add(run.send(send(flow, true, 2))[0].toString());
            }
        }
        for (int second = 0; second < 60; second++) {
            for (int flow = 0; flow < flowCount; flow++) {
                outcomes.add(run.send(send(flow, false, 0))[0].toString());
                outcomes.add(run.send(send(flow, true, 0))[0].toString());
            }
            if (second == 30) {
                run.run(new ApplyRules(List.of(9, 8, 7)));
            }
            run.run(new Advance(1));
        }
        return outcomes;
    }

    private static Send send(int flow, boolean reply, int kind) {
        return new Send(flow, reply, kind, Tagging.LINK, 64);
    }

    @Test
    void verifyingEveryHitFindsNoMismatchAndChangesNothing() {
        List<Flow> flows = flows();
        List<String> withVerifier;
        EngineStats verified;
        try (SequenceRun run = new SequenceRun(config(1), flows)) {
            withVerifier = converse(run, flows.size());
            verified = run.engines().underTest().stats();
        }
        List<String> without;
        EngineStats plain;
        try (SequenceRun run = new SequenceRun(config(0), flows)) {
            without = converse(run, flows.size());
            plain = run.engines().underTest().stats();
        }

        assertThat(verified.flowCache().hits()).isGreaterThan(5_000);
        assertThat(verified.flowCache().verifierChecks()).isEqualTo(verified.flowCache().hits());
        assertThat(verified.flowCache().verifierMismatches()).isZero();
        assertThat(verified.verifierMismatches()).isEmpty();
        assertThat(plain.flowCache().verifierChecks()).isZero();
        // the probes left no trace: same frames, same connections, same cache and slow-path work, same drops
        assertThat(withVerifier).isEqualTo(without);
        assertThat(verified.connections()).isEqualTo(plain.connections()).isPositive();
        assertThat(verified.drops()).isEqualTo(plain.drops());
        assertThat(verified.flowCache().insertions()).isEqualTo(plain.flowCache().insertions());
        assertThat(verified.flowCache().slowPath()).isEqualTo(plain.flowCache().slowPath());
        assertThat(verified.flowCache().entries()).isEqualTo(plain.flowCache().entries());
        assertThat(ioChainPackets(verified)).isEqualTo(ioChainPackets(plain));
        assertThat(verified.txPackets()).isEqualTo(plain.txPackets());
    }

    private static long ioChainPackets(EngineStats stats) {
        return stats.workers().stream().mapToLong(EngineStats.WorkerStats::ioChainPackets).sum();
    }

    @Test
    void aCorruptedCacheEntryIsReportedWithBothDecisions() {
        List<Flow> flows = List.of(new Flow(Protocol.UDP, Pair.A_B, false, 0));
        try (SequenceRun run = new SequenceRun(config(1), flows)) {
            for (int i = 0; i < 3; i++) {
                run.send(send(0, false, 0));
                run.send(send(0, true, 0));
            }
            assertThat(run.engines().underTest().stats().flowCache().verifierChecks()).isPositive();
            assertThat(run.engines().underTest().stats().flowCache().verifierMismatches()).isZero();
            Engine engine = run.engines().underTest();
            for (int w = 0; w < engine.workerCount(); w++) {
                engine.corruptFlowCache(w);
            }

            Outcome[] out = run.engines().send(FlowFrames.packet(run.flow(0), false, 0, Tagging.LINK, 64, 99));

            assertThat(out[0].forwarded()).as("the corrupted entry drops: %s", out[0]).isFalse();
            assertThat(out[1].forwarded()).as("LEGACY forwards: %s", out[1]).isTrue();
            EngineStats stats = engine.stats();
            assertThat(stats.flowCache().verifierMismatches()).isEqualTo(1);
            assertThat(stats.workers().stream().mapToLong(w -> w.flowCache().verifierMismatches()).sum())
                    .isEqualTo(1);
            assertThat(stats.verifierMismatches()).hasSize(1);
            Mismatch m = stats.verifierMismatches().getFirst();
            assertThat(m.cached()).isEqualTo("drop(NO_ROUTE)");
            assertThat(m.slowPath()).startsWith("output(port ");
            assertThat(m.flow()).contains("udp").contains(" > ");
            assertThat(m.generation()).isEqualTo(stats.generation());
        }
    }
}
