package io.edp.engine.capture;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.time.Clock;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An engine's live captures and the workers' taps into them. The workers see the running captures as one array
 * they read once per burst ({@link #active()}, an opaque read of a field that stays null while nothing is
 * captured: the whole cost of capturing when no capture runs); a burst then offers its frames to the captures of
 * its port and direction: received frames as they arrive, before they are parsed ({@link #received}), transmitted
 * ones as they are handed to their port, after the rewrite ({@link #transmitted}) — so fast-path and slow-path
 * packets are tapped at the same two points. Each capture drains its rings on a thread of its own, or, on a stepped
 * engine, when the engine steps ({@link #step}).
 */
public final class Captures implements AutoCloseable {

    private static final VarHandle ACTIVE;

    static {
        try {
            ACTIVE = MethodHandles.lookup().findVarHandle(Captures.class, "active", CaptureSession[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int workers;
    private final Clock clock;
    private final boolean stepped;
    private final List<CaptureSession> running = new ArrayList<>();
    /** The running captures as the workers read them; null when there are none. */
    @SuppressWarnings("unused") // through ACTIVE
    private CaptureSession[] active;

    public Captures(int workers, Clock clock, boolean stepped) {
        this.workers = workers;
        this.clock = clock;
        this.stepped = stepped;
    }

    /** The running captures, or null when none runs. Worker thread, once per burst. */
    public CaptureSession[] active() {
        return (CaptureSession[]) ACTIVE.getOpaque(this);
    }

    /** Offers the frames {@code buffers[0, count)} that port {@code port} received to its RX captures. */
    public static void received(CaptureSession[] taps, int worker, int port, int[] buffers, int count, Mbuf mbuf,
            long nanos) {
        for (CaptureSession s : taps) {
            if (s.rx && s.port == port) {
                s.tap(worker, buffers, count, mbuf, nanos, true);
            }
        }
    }

    /** Offers the frames {@code buffers[0, count)} handed to port {@code port} to its TX captures. */
    public static void transmitted(CaptureSession[] taps, int worker, int port, int[] buffers, int count, Mbuf mbuf,
            long nanos) {
        for (CaptureSession s : taps) {
            if (s.tx && s.port == port) {
                s.tap(worker, buffers, count, mbuf, nanos, false);
            }
        }
    }

    /**
     * Starts a capture into a new file at {@code file}; the caller checked that the port exists and names it
     * {@code portName}.
     */
    public synchronized CaptureSession start(CaptureSpec spec, Path file, String portName) {
        CaptureSession session = new CaptureSession(spec, file, portName, workers, clock, this);
        running.add(session);
        publish();
        if (!stepped) {
            session.startDrainer();
        }
        return session;
    }

    /** Stops publishing {@code session} to the workers (a burst that read it before may still offer frames). */
    synchronized void remove(CaptureSession session) {
        if (running.remove(session)) {
            publish();
        }
    }

    private void publish() {
        ACTIVE.setRelease(this, running.isEmpty() ? null : running.toArray(CaptureSession[]::new));
    }

    /** A stepped engine's drain: every running capture takes what its rings hold and ends at a limit it reached. */
    public void step() {
        for (CaptureSession s : snapshot()) {
            s.drainStep();
        }
    }

    private synchronized List<CaptureSession> snapshot() {
        return List.copyOf(running);
    }

    /** Ends every running capture (its engine closes): each drains what its rings hold and closes its file. */
    @Override
    public void close() {
        for (CaptureSession s : snapshot()) {
            s.stop(CaptureStats.EndReason.ENGINE_CLOSED);
        }
    }
}
