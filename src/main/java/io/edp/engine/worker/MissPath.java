package io.edp.engine.worker;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.slowpath.IoChain;
import io.edp.engine.slowpath.RuleCounters;

/**
 * The miss-path stage of a worker's burst (dpif-netdev's upcall, here in the worker): runs a packet through the
 * {@link IoChain} (switching → firewall + connection tracking → routing) and returns the index of its interned
 * action. LEGACY sends every packet here; the EDP modes only what the {@link FastPath} missed.
 */
final class MissPath {

    private final IoChain ioChain;
    private final FastPath fastPath;
    private final RuleCounters ruleCounters;
    private final long[] workerCounters;

    MissPath(IoChain ioChain, FastPath fastPath, RuleCounters ruleCounters, long[] workerCounters) {
        this.ioChain = ioChain;
        this.fastPath = fastPath;
        this.ruleCounters = ruleCounters;
        this.workerCounters = workerCounters;
    }

    /** The action index for {@code m}, or a negative value when even an emptied action table has no room. */
    int process(Mbuf m, Generation g, int nowMillis) {
        workerCounters[Worker.IOCHAIN_PACKETS]++;
        int actionIndex = ioChain.process(m, g.tables(), nowMillis);
        if (actionIndex < 0) {
            // the table is full: start over, dropping the cache entries that point into it; the rule counters'
            // run names an action of the table, so it is added first
            ruleCounters.flush();
            ioChain.actions().clear();
            fastPath.flush();
            actionIndex = ioChain.process(m, g.tables(), nowMillis);
        }
        return actionIndex;
    }
}
