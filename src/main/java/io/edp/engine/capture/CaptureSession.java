package io.edp.engine.capture;

import io.edp.engine.capture.CaptureStats.EndReason;
import io.edp.engine.capture.CaptureStats.State;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.nic.pcap.CaptureFileWriter;
import io.edp.engine.nic.pcap.PcapWriter;
import io.edp.engine.nic.pcap.PcapngWriter;
import io.edp.engine.process.FatalErrors;
import io.edp.engine.time.Clock;
import io.edp.engine.worker.Worker;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * One live capture: the workers copy the frames that pass its filter into their own {@link CaptureRing}; its drainer
 * writes them, ring by ring, into a classic pcap or a pcapng file and ends the capture at its packet or time limit, or
 * when {@link #stop stopped}. Frames of different workers are written in the order they are drained, so the file is in
 * time order per worker (per RX queue); a pcap reader does not need more.
 */
public final class CaptureSession {

    /** How long an idle drainer waits before looking at the rings again. */
    static final long IDLE_NANOS = 1_000_000;

    final int port;
    final boolean rx;
    final boolean tx;
    private final CaptureFilter.Compiled filter;
    private final CaptureRing[] rings;
    private final CaptureSpec spec;
    private final Path file;
    private final Clock clock;
    private final Captures owner;
    private final CaptureFileWriter writer;
    private final long epochMinusClockNanos;
    private final long deadlineNanos;
    private final CaptureRing.FrameReader write = this::write;
    private Thread drainer;

    // written by the drainer only, read by anyone
    private volatile long captured;
    private volatile long bytes;
    private volatile EndReason endReason;
    private volatile String failure;
    private volatile EndReason stopRequest;
    private volatile Instant endedAt;

    /** {@code portName} names the port in a pcapng file's interface description. */
    CaptureSession(CaptureSpec spec, Path file, String portName, int workers, Clock clock, Captures owner) {
        this.spec = spec;
        this.file = file;
        this.clock = clock;
        this.owner = owner;
        this.port = spec.port();
        this.rx = spec.direction().rx();
        this.tx = spec.direction().tx();
        this.filter = spec.filter().compile();
        this.rings = new CaptureRing[workers];
        for (int i = 0; i < workers; i++) {
            rings[i] = new CaptureRing(spec.ringFrames(), spec.snaplen(), spec.maxPackets());
        }
        this.writer = switch (spec.format()) {
            case PCAP -> new PcapWriter(file, spec.nanosecondTimestamps(), spec.snaplen());
            case PCAPNG -> new PcapngWriter(file, portName, spec.nanosecondTimestamps(), spec.snaplen());
        };
        long now = clock.nanoTime();
        this.epochMinusClockNanos = System.currentTimeMillis() * 1_000_000L - now;
        this.deadlineNanos = now + Math.min(spec.maxDuration().toNanos(), Long.MAX_VALUE - now);
    }

    public CaptureSpec spec() {
        return spec;
    }

    public Path file() {
        return file;
    }

    /**
     * Worker {@code worker}'s burst {@code buffers[0, count)}, received ({@code inbound}) or transmitted by the
     * port: the frames that pass the filter go to its ring.
     */
    void tap(int worker, int[] buffers, int count, Mbuf mbuf, long nanos, boolean inbound) {
        CaptureRing ring = rings[worker];
        for (int i = 0; i < count; i++) {
            Mbuf m = mbuf.wrap(buffers[i]);
            if (filter.matches(m.data(), m.dataAddress(), m.dataLength())) {
                ring.offer(m.data(), m.dataAddress(), m.dataLength(), nanos, inbound);
            }
        }
    }

    public CaptureStats stats() {
        EndReason reason = endReason;
        long dropped = 0;
        for (CaptureRing ring : rings) {
            dropped += ring.dropped();
        }
        return new CaptureStats(reason == null ? State.RUNNING : State.ENDED, reason, failure, captured, dropped,
                bytes, writer.flushedBytes(), endedAt);
    }

    /**
     * Ends the capture (if it runs) and returns once its file is complete: what the rings hold is written first.
     * Waits at most {@link Worker#RESPONSE_DEADLINE} for the drainer.
     */
    public CaptureStats stop() {
        return stop(EndReason.STOPPED);
    }

    CaptureStats stop(EndReason reason) {
        Thread t = drainer;
        if (t == null) {
            synchronized (this) {
                if (endReason == null) {
                    finish(reason);
                }
            }
            return stats();
        }
        stopRequest = reason;
        LockSupport.unpark(t);
        try {
            t.join(Worker.RESPONSE_DEADLINE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return stats();
    }

    void startDrainer() {
        drainer = Thread.ofPlatform().name("edp-capture-" + port).daemon(true).start(this::drainUntilEnd);
    }

    private void drainUntilEnd() {
        EndReason reason = null;
        try {
            while (reason == null) {
                int n = drain();
                reason = due();
                if (reason == null && n == 0) {
                    if (writer.staged()) {
                        writer.flush(); // a reader of the running capture sees what arrived so far
                    }
                    LockSupport.parkNanos(IDLE_NANOS);
                }
            }
        } catch (Throwable e) {
            FatalErrors.haltOnOutOfMemory(e);
            failure = String.valueOf(e.getMessage());
            reason = EndReason.FAILED;
        }
        finish(reason);
    }

    /** A stepped engine's turn: drain, and end at a limit. */
    synchronized void drainStep() {
        if (endReason != null) {
            return;
        }
        drain();
        EndReason reason = due();
        if (reason != null) {
            finish(reason);
        }
    }

    private EndReason due() {
        if (captured >= spec.maxPackets()) {
            return EndReason.PACKET_LIMIT;
        }
        if (clock.nanoTime() - deadlineNanos >= 0) {
            return EndReason.TIME_LIMIT;
        }
        return stopRequest;
    }

    /** Writes what the rings hold, up to the packet limit; returns the frames taken. */
    private int drain() {
        int n = 0;
        for (CaptureRing ring : rings) {
            n += ring.drain(write, spec.maxPackets() - captured);
        }
        return n;
    }

    private void write(MemorySegment data, long offset, int capturedLength, int length, long nanos,
            boolean inbound) {
        writer.write(data, offset, capturedLength, length, epochMinusClockNanos + nanos, inbound);
        captured++;
        bytes += length;
    }

    /** The workers stop seeing the capture; what they put in the rings until then is written; the file closes. */
    private void finish(EndReason reason) {
        owner.remove(this);
        try {
            if (reason != EndReason.FAILED) {
                drain();
            }
            writer.close();
        } catch (RuntimeException e) {
            failure = String.valueOf(e.getMessage());
            reason = EndReason.FAILED;
        }
        endedAt = Instant.now();
        endReason = reason;
    }
}
