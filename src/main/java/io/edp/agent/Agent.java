package io.edp.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.edp.agent.AgentRealizationReport.State;
import io.edp.engine.Engine;
import io.edp.engine.EngineSlot;
import io.edp.engine.EngineStats;
import io.edp.engine.nic.NicDrivers;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.engines.InProcessEngine;

/**
 * One host's engine, run as the manager says: long-polls the host's whole desired state, makes the engine run it
 * ({@link EngineSlot}: live or rebuilt), reports the realization, and sends a statistics snapshot every interval.
 * Level-triggered: after any break in the conversation it asks for the whole state again (no {@code after}) and
 * reports again, so a lost report or a restarted agent converges. While the manager cannot be reached the engine
 * keeps forwarding on what it last ran, and the agent retries with capped, jittered exponential backoff.
 *
 * <p>Operators' requests to the engine (a flush, a trace, traffic, connections, counters) come with the desired
 * state; they run one after another on a thread of their own, so that a long one never holds up the next poll, and
 * each is answered as the manager would answer it for an engine of its own ({@link InProcessEngine}). Live captures
 * are kept by {@link AgentCaptures}, which writes their files in the agent's capture directory and uploads them.
 */
final class Agent {

    static final Duration POLL_WAIT = Duration.ofSeconds(30);
    /** How soon after a capture ended its file is uploaded (or tried again, while the manager is away). */
    private static final Duration CAPTURE_SWEEP = Duration.ofMillis(500);

    private final ManagerClient manager;
    private final EngineSlot slot;
    private final Duration statsInterval;
    private final PrintStream log;
    private final Backoff reconnect = new Backoff(Duration.ofMillis(250), Duration.ofSeconds(15));
    private final Backoff retryApply = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30));
    private volatile boolean running = true;
    /** The generation the engine runs (0: none yet); read by the statistics thread. */
    private volatile long runningGeneration;
    private final ExecutorService requests = Executors.newSingleThreadExecutor(
            task -> Thread.ofPlatform().name("edp-agent-requests").daemon(true).unstarted(task));
    /** The handle of the engine that runs now: it keeps the traffic run started on that engine. Guarded by slot. */
    private InProcessEngine handle;
    private Engine handled;
    private final AgentCaptures captures;

    /** {@code captureDir}: the only directory live captures write their files in. */
    Agent(ManagerClient manager, NicDrivers drivers, Path captureDir, Duration statsInterval, PrintStream log) {
        this(manager, new EngineSlot(drivers, new EngineSlot.Listener() { }), captureDir, statsInterval, log);
    }

    /** {@code slot}: where the engine runs; whoever reads it too synchronizes on it, as this agent does. */
    Agent(ManagerClient manager, EngineSlot slot, Path captureDir, Duration statsInterval, PrintStream log) {
        this.manager = manager;
        this.slot = slot;
        this.statsInterval = statsInterval;
        this.log = log;
        this.captures = new AgentCaptures(captureDir, manager, this::log);
    }

    /** Runs until {@link #stop}; then closes the engine. */
    void run() {
        var stats = Thread.ofPlatform().name("edp-agent-stats").daemon(true).start(this::reportStats);
        var uploads = Thread.ofVirtual().name("edp-agent-captures").start(this::sweepCaptures);
        Long after = null; // null: ask for the whole state at once
        boolean cutOff = false;
        while (running) {
            try {
                var desired = manager.desiredState(after, POLL_WAIT);
                if (cutOff) {
                    log("manager reachable again");
                    cutOff = false;
                }
                reconnect.reset();
                if (desired.isPresent()) {
                    var state = desired.get();
                    if (after == null || after != state.generation()) {
                        after = apply(state) ? state.generation() : null;
                    } // else woken for requests alone: the engine runs this generation already
                    state.requests().forEach(queued -> requests.execute(() -> answer(queued)));
                }
            } catch (ManagerClient.ManagerException e) {
                log(e.getMessage());
                after = null;
                pause(reconnect.next());
            } catch (IOException e) {
                if (!cutOff && !(e instanceof HttpTimeoutException)) {
                    log("manager unreachable (" + e + "); the engine keeps forwarding on generation "
                            + runningGeneration + ", retrying with backoff");
                }
                cutOff = true;
                after = null;
                pause(reconnect.next());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        stats.interrupt();
        uploads.interrupt();
        requests.shutdownNow();
        synchronized (slot) {
            slot.close();
        }
        captures.sweep(); // the captures ended with the engine: their files, if the manager is there
        log("stopped, engine closed");
    }

    /**
     * Makes the engine run {@code desired} and reports how it went; whether it did. After a failure the caller
     * asks again for the whole state after a backoff, which retries it.
     */
    private boolean apply(AgentDesiredState desired) throws IOException, InterruptedException {
        State state;
        String reason = null;
        try {
            EngineSlot.Outcome outcome;
            synchronized (slot) {
                outcome = slot.push(desired.engine() == null ? null : EngineJson.config(desired.engine()));
            }
            runningGeneration = desired.generation();
            state = State.SUCCESS;
            if (outcome != EngineSlot.Outcome.UNCHANGED) {
                log("generation " + desired.generation() + ": " + outcome.name().toLowerCase()
                        + (desired.engine() == null ? " (the manager gives this host no engine to run here)" : ""));
            }
            retryApply.reset();
        } catch (RuntimeException e) {
            state = State.FAILED;
            reason = e.getMessage() == null ? e.toString() : e.getMessage();
            log("generation " + desired.generation() + " failed: " + reason);
        }
        manager.report(new AgentRealizationReport(desired.generation(), state, reason));
        if (state == State.FAILED) {
            pause(retryApply.next());
            return false;
        }
        return true;
    }

    /** Runs a request on the engine and sends the answer; one the manager no longer waits for is dropped. */
    private void answer(EngineRequest.Queued queued) {
        AgentAnswer answer;
        if (queued.request() instanceof EngineRequest.OfCapture capture) {
            // outside the slot's lock: an upload must not hold up applying the desired state
            Optional<HostEngine> engine;
            synchronized (slot) {
                engine = slot.engine().map(this::handle);
            }
            answer = captures.answer(capture, engine);
        } else {
            synchronized (slot) {
                answer = slot.engine().map(engine -> queued.request().answer(handle(engine)))
                        .orElseGet(() -> AgentAnswer.refused(404, null, "The host's agent runs no engine (the "
                                + "desired state gives it none, or its last configuration failed)"));
            }
        }
        try {
            manager.answer(queued.id(), answer);
        } catch (IOException e) {
            log("the answer to request " + queued.id() + " did not arrive: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The handle of the engine that runs now. Guarded by slot. */
    private InProcessEngine handle(Engine engine) {
        if (handled != engine) { // rebuilt: a traffic run ended with the engine it ran on
            handle = new InProcessEngine(engine);
            handled = engine;
        }
        return handle;
    }

    private void sweepCaptures() {
        while (running) {
            LockSupport.parkNanos(CAPTURE_SWEEP.toNanos());
            if (Thread.interrupted()) {
                return;
            }
            captures.sweep();
        }
    }

    private void reportStats() {
        // the first snapshot at a random point of the interval: agents started together (a fleet after a rollout,
        // the launcher) would otherwise send theirs together every interval, on top of a change's reports
        long wait = ThreadLocalRandom.current().nextLong(1, statsInterval.toNanos() + 1);
        while (running) {
            LockSupport.parkNanos(wait);
            wait = statsInterval.toNanos();
            if (Thread.interrupted()) {
                return;
            }
            try {
                EngineStats stats;
                synchronized (slot) {
                    var engine = slot.engine();
                    if (engine.isEmpty()) {
                        continue;
                    }
                    stats = engine.get().stats();
                }
                manager.stats(new AgentStatsReport(runningGeneration, EngineJson.tree(stats)));
            } catch (IOException e) {
                // the main loop reports the outage; a snapshot that did not arrive is replaced by the next
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    void stop() {
        running = false;
    }

    private void pause(Duration delay) {
        try {
            TimeUnit.MILLISECONDS.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void log(String line) {
        log.println(Instant.now() + " agent: " + line);
    }
}
