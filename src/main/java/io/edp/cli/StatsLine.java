package io.edp.cli;

import io.edp.engine.EngineStats;
import io.edp.engine.packet.DropReason;
import io.edp.engine.tlb.QueueMove;
import io.edp.engine.tlb.TlbDecision;
import java.util.Locale;
import java.util.Map;

/** Engine statistics as one line of text, for the standalone engine's log and the benchmarks. */
public final class StatsLine {

    private StatsLine() {
    }

    /** Totals of {@code now}, rates since {@code previous}, flow-cache hit rate and drops by reason. */
    public static String between(EngineStats previous, EngineStats now) {
        double seconds = Math.max(1e-9, (now.takenAtNanos() - previous.takenAtNanos()) / 1e9);
        return String.format(Locale.ROOT,
                "gen=%d rx=%d (%.3f Mpps) tx=%d (%.3f Mpps) dropped=%d flow-cache hit=%.1f%% entries=%d",
                now.generation(), now.rxPackets(), (now.rxPackets() - previous.rxPackets()) / seconds / 1e6,
                now.txPackets(), (now.txPackets() - previous.txPackets()) / seconds / 1e6, now.dropped(),
                100 * now.flowCache().hitRate(), now.flowCache().entries()) + drops(now);
    }

    /** " reason=count" for every reason with drops, lower case; empty when nothing was dropped. */
    public static String drops(EngineStats stats) {
        StringBuilder line = new StringBuilder();
        for (Map.Entry<DropReason, Long> drop : stats.drops().entrySet()) {
            if (drop.getValue() > 0) {
                line.append(' ').append(drop.getKey().name().toLowerCase(Locale.ROOT))
                        .append('=').append(drop.getValue());
            }
        }
        return line.toString();
    }

    /** "tlb: TRIGGER → OUTCOME, peak 95% → 48%, moves port 0 queue 3 w0→w1 …". */
    public static String of(TlbDecision decision) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "tlb: %s -> %s, peak %.0f%% -> %.0f%%",
                decision.trigger(), decision.outcome(), 100 * peak(decision.loadsBefore()),
                100 * peak(decision.loadsPredicted())));
        for (QueueMove move : decision.moves()) {
            line.append(String.format(Locale.ROOT, ", port %d queue %d w%d->w%d", move.queue().port(),
                    move.queue().rxQueue(), move.fromWorker(), move.toWorker()));
        }
        return line.toString();
    }

    private static double peak(Map<Integer, Double> loads) {
        double peak = 0;
        for (double load : loads.values()) {
            peak = Math.max(peak, load);
        }
        return peak;
    }
}
