package io.edp.engine.tlb;

import java.time.Instant;
import java.util.List;
import java.util.SortedMap;

/**
 * One triggered TLB cycle, kept in the balancer's history: why it ran, the per-worker loads it saw, the loads
 * its plan predicts, the moves, and what became of the plan.
 */
public record TlbDecision(Instant at, Trigger trigger, Outcome outcome, SortedMap<Integer, Double> loadsBefore,
                          SortedMap<Integer, Double> loadsPredicted, List<QueueMove> moves) {

    public TlbDecision {
        moves = List.copyOf(moves);
    }

    public enum Outcome {
        /** The moves were made. */
        APPLIED,
        /** The current assignment is already as good as the planner can do. */
        NO_BETTER_ASSIGNMENT,
        /** The plan would lower the peak by less than the improvement threshold. */
        GAIN_TOO_SMALL,
        /** The last moves were too recent (anti-flap); nothing was moved. */
        TOO_SOON
    }

    static TlbDecision of(Instant at, Trigger trigger, Outcome outcome, Plan plan) {
        List<QueueMove> moves = outcome == Outcome.APPLIED ? plan.moves() : List.of();
        return new TlbDecision(at, trigger, outcome, plan.loadsBefore(), plan.loadsAfter(), moves);
    }
}
