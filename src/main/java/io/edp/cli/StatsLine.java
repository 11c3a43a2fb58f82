package io.edp.cli;

import io.edp.engine.EngineStats;
import io.edp.engine.packet.DropReason;
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
                line.append(' ').append(drop.getKey().name().toLowerCase(Locale.ROOT)).append('=').append(drop.getValue());
            }
        }
        return line.toString();
    }
}
