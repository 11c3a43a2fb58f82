package io.edp.engine.tlb;

import java.util.List;

/** The balancer as stats show it: its settings, the per-worker and per-queue loads of the last cycle, decisions. */
public record TlbStats(TlbConfig config, LoadSnapshot lastLoads, List<TlbDecision> recentDecisions) {

    public TlbStats {
        recentDecisions = List.copyOf(recentDecisions);
    }
}
