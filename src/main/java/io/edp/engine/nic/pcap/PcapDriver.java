package io.edp.engine.nic.pcap;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDriver;
import java.util.function.LongSupplier;

/**
 * A capture file as a port: one RX queue replays a classic pcap file (full speed or original timing), one TX
 * queue writes what the engine transmits to another pcap file, stamped with the time it was sent.
 */
public final class PcapDriver implements NicDriver {

    private static final int MAX_FRAME = MbufPool.DATA_ROOM_BYTES - MbufPool.HEADROOM_BYTES;

    private final PcapConfig config;
    private final int port;
    private final LongSupplier nanoClock;
    private final long epochMinusClockNanos;
    private final PcapReader reader;
    private final PcapWriter writer;

    private final Mbuf rxMbuf;
    private final Mbuf txMbuf;
    private long replayStartClock = -1;
    private long replayStartCapture;
    private long rxPackets;
    private long rxOversized;
    private long txPackets;

    private PcapDriver(PcapConfig config, int port, MbufPool pool, LongSupplier nanoClock) {
        this.config = config;
        this.rxMbuf = new Mbuf(pool);
        this.txMbuf = new Mbuf(pool);
        this.port = port;
        this.nanoClock = nanoClock;
        this.epochMinusClockNanos = System.currentTimeMillis() * 1_000_000L - nanoClock.getAsLong();
        this.reader = config.rxFile() == null ? null : new PcapReader(config.rxFile());
        try {
            this.writer = config.txFile() == null ? null : new PcapWriter(config.txFile(), config.nanosecondOutput());
        } catch (RuntimeException e) {
            if (reader != null) {
                reader.close();
            }
            throw e;
        }
    }

    /**
     * Opens the files; frames read go into buffers of {@code pool} (the pool of every cache passed to the
     * bursts) and are stamped with {@code port}.
     *
     * @throws io.edp.engine.nic.NicSetupException naming the file when it cannot be read, written or parsed
     */
    public static PcapDriver open(PcapConfig config, int port, MbufPool pool) {
        return new PcapDriver(config, port, pool, System::nanoTime);
    }

    /**
     * As {@link #open(PcapConfig, int, MbufPool)} with the clock that paces original-timing replay and stamps output.
     */
    public static PcapDriver open(PcapConfig config, int port, MbufPool pool, LongSupplier nanoClock) {
        return new PcapDriver(config, port, pool, nanoClock);
    }

    @Override
    public String name() {
        return "pcap:" + (config.rxFile() == null ? "-" : config.rxFile().getFileName())
                + ">" + (config.txFile() == null ? "-" : config.txFile().getFileName());
    }

    @Override
    public int rxQueueCount() {
        return 1;
    }

    @Override
    public int txQueueCount() {
        return 1;
    }

    @Override
    public int rxBurst(int rxQueue, MbufCache cache, int[] mbufs, int max) {
        if (reader == null) {
            return 0;
        }
        Mbuf m = rxMbuf;
        boolean paced = config.replay() == PcapConfig.Replay.ORIGINAL_TIMING;
        long elapsed = paced ? elapsedSinceReplayStart() : 0;
        int n = 0;
        while (n < max && reader.hasFrame()) {
            long captured = reader.timestampNanos();
            if (paced && captured - replayStartCapture > elapsed) {
                break; // not due yet
            }
            int length = reader.frameLength();
            if (length > MAX_FRAME) {
                rxOversized++;
                reader.advance();
                continue;
            }
            int index = cache.allocate();
            if (index < 0) {
                break;
            }
            m.wrap(index).copyFrom(reader.file(), reader.frameOffset(), length);
            m.port(port).rxQueue(rxQueue).timestamp(captured);
            mbufs[n++] = index;
            reader.advance();
        }
        rxPackets += n;
        return n;
    }

    private long elapsedSinceReplayStart() {
        long now = nanoClock.getAsLong();
        if (replayStartClock < 0 && reader.hasFrame()) {
            replayStartClock = now;
            replayStartCapture = reader.timestampNanos();
        }
        return now - replayStartClock;
    }

    @Override
    public int txBurst(int txQueue, MbufCache cache, int[] mbufs, int count) {
        if (writer != null) {
            Mbuf m = txMbuf;
            long now = epochMinusClockNanos + nanoClock.getAsLong();
            for (int i = 0; i < count; i++) {
                m.wrap(mbufs[i]);
                writer.write(m.data(), m.dataAddress(), m.dataLength(), now);
            }
        }
        cache.freeBurst(mbufs, count);
        txPackets += count;
        return count;
    }

    /** True once every frame of the RX file has been delivered (always true without one). */
    public boolean replayDone() {
        return reader == null || !reader.hasFrame();
    }

    public long rxPackets() {
        return rxPackets;
    }

    /** Frames of the RX file skipped because they do not fit a data room. */
    public long rxOversized() {
        return rxOversized;
    }

    public long txPackets() {
        return txPackets;
    }

    @Override
    public void close() {
        try {
            if (writer != null) {
                writer.close();
            }
        } finally {
            if (reader != null) {
                reader.close();
            }
        }
    }
}
