package io.edp.engine.slowpath;

/**
 * A worker's flow cache as connection tracking sees it: the entries that rest on connections and keep, in their
 * own line, the time of their last hit. A connection asks them when its own times say it timed out
 * ({@link ConnectionTable#rest}), so that a hit need not store anything into the connection table.
 */
public interface RestingEntries {

    /** {@link #lastHit} result: the slot holds no entry that rests on the connection, as registered. */
    long NONE = Long.MIN_VALUE;

    /**
     * The last hit (ms of the engine clock) of the entry at {@code slot} when it is the registered entry of the
     * connection direction {@code reference}, else {@link #NONE}. Called from any thread.
     */
    long lastHit(int slot, int reference);
}
