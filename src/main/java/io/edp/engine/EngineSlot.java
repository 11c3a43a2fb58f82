package io.edp.engine;

import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.time.SystemClock;
import io.edp.engine.worker.WorkerHealth;
import java.util.Optional;

/**
 * Where one host's engine runs, made to run each configuration pushed to it: live when the running engine can take the
 * change (mode, vNICs, rules, routes, flow cache, Thread Load Balancer, added or removed ports, a port's MTU); rebuilt
 * when it changes the workers, the memory or another setting of a port it keeps, handing the old engine's connection
 * table and rule counters to the new one so no connection is cut and no kept rule's counts restart; rebuilt too when a
 * worker is not running (dead or stalled): a new engine is the only cure. The manager's embedded engines and an agent's
 * engine both run this way. Not thread-safe: callers serialize the calls for one slot.
 */
public final class EngineSlot implements AutoCloseable {

    /** What happened to the engine, told while it happens (before a stopped engine closes). */
    public interface Listener {
        default void started(Engine engine) {
        }

        default void reconfigured(Engine engine) {
        }

        default void stopping(Engine engine) {
        }
    }

    /** What a push did. */
    public enum Outcome {
        UNCHANGED, RECONFIGURED, STARTED, REBUILT, STOPPED
    }

    private final NicDrivers drivers;
    private final Listener listener;
    private Engine engine;

    public EngineSlot(NicDrivers drivers, Listener listener) {
        this.drivers = drivers;
        this.listener = listener;
    }

    /**
     * Makes the slot run {@code next}; null stops its engine. A refused live change leaves the engine as it was; a
     * failed rebuild leaves none.
     *
     * @throws RuntimeException when the engine cannot take the configuration; the message says why
     */
    public Outcome push(EngineConfig next) {
        if (next == null) {
            boolean had = engine != null;
            close();
            return had ? Outcome.STOPPED : Outcome.UNCHANGED;
        }
        var running = engine;
        var fault = running == null ? Optional.<WorkerHealth>empty() : running.fault();
        if (running != null && fault.isEmpty() && liveChange(running.config(), next)) {
            if (running.config().equals(next)) {
                return Outcome.UNCHANGED;
            }
            running.apply(next); // throws before changing anything when refused
            listener.reconfigured(running);
            return Outcome.RECONFIGURED;
        }
        engine = null;
        if (running != null) {
            stop(running);
        }
        engine = running == null ? Engine.start(next, drivers, SystemClock.INSTANCE)
                : Engine.start(next, drivers, SystemClock.INSTANCE, running); // its connections and rule counters
        listener.started(engine);
        return running == null ? Outcome.STARTED : Outcome.REBUILT;
    }

    /** Why the running engine does not run as pushed (a worker that died or stalled), if it does not. */
    public Optional<WorkerHealth> fault() {
        return engine == null ? Optional.empty() : engine.fault();
    }

    /**
     * What a running engine cannot change: its workers, its memory, and the settings of a port it keeps, but for
     * the port's MTU (as {@link Engine#apply} allows).
     */
    static boolean liveChange(EngineConfig current, EngineConfig next) {
        if (!current.workersPerNumaNode().equals(next.workersPerNumaNode()) || current.mbufs() != next.mbufs()
                || current.conntrackCapacity() != next.conntrackCapacity()) {
            return false;
        }
        for (PortConfig port : next.ports()) {
            for (PortConfig kept : current.ports()) {
                if (kept.id() == port.id() && !kept.withMtu(port.mtu()).equals(port)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The running engine, if there is one. */
    public Optional<Engine> engine() {
        return Optional.ofNullable(engine);
    }

    private void stop(Engine running) {
        listener.stopping(running);
        running.close();
    }

    /** Stops the engine, if one runs. */
    @Override
    public void close() {
        var running = engine;
        engine = null;
        if (running != null) {
            stop(running);
        }
    }
}
