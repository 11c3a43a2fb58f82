package io.edp.engine.worker;

import io.edp.engine.capture.CaptureSession;
import io.edp.engine.capture.Captures;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.packet.DropReason;

/**
 * The last stage of a worker's burst: frames are {@link #stage staged} with their output port in arrival order,
 * then {@link #send sent} as one TX burst per port, keeping their order within each port. Counts TX packets and
 * bytes per worker and per port, and drops to a port that is down or a full TX queue.
 */
final class Transmit {

    private final int workerId;
    private final MbufCache mbufs;
    private final Mbuf mbuf;
    private final long[] workerCounters;
    private final long[] portCounters;
    private final long[] drops;
    /** Room for a burst's frames and a burst's worth of flood copies ({@link Flood} keeps a burst free). */
    static final int CAPACITY = 2 * NicDriver.MAX_BURST;

    private final int[] staged = new int[CAPACITY];
    private final int[] stagedPort = new int[CAPACITY];
    private final int[] txBurst = new int[NicDriver.MAX_BURST];
    private int stagedCount;

    Transmit(int workerId, MbufCache mbufs, Mbuf mbuf, long[] workerCounters, long[] portCounters, long[] drops) {
        this.workerId = workerId;
        this.mbufs = mbufs;
        this.mbuf = mbuf;
        this.workerCounters = workerCounters;
        this.portCounters = portCounters;
        this.drops = drops;
    }

    /** Frames that can still be staged before a {@link #send}. */
    int room() {
        return CAPACITY - stagedCount;
    }

    /**
     * Queues buffer {@code index} for {@code port}; at most {@link #CAPACITY} between two {@link #send}s, and a
     * burst's worth for any one port.
     */
    void stage(int index, int port) {
        staged[stagedCount] = index;
        stagedPort[stagedCount++] = port;
    }

    /**
     * Sends the staged frames, one tx burst per output port, keeping their order within each port; the running
     * captures ({@code taps}, null when none) see each port's burst as it is handed over, at {@code nanos}.
     */
    void send(Generation g, CaptureSession[] taps, long nanos) {
        int remaining = stagedCount;
        while (remaining > 0) {
            int port = -1;
            int count = 0;
            int kept = 0;
            for (int i = 0; i < remaining; i++) {
                if (port < 0) {
                    port = stagedPort[i];
                }
                if (stagedPort[i] == port) {
                    txBurst[count++] = staged[i];
                } else {
                    staged[kept] = staged[i];
                    stagedPort[kept++] = stagedPort[i];
                }
            }
            remaining = kept;
            stagedCount = kept;
            TxPort tx = g.txPort(port);
            if (tx == null) {
                drops[DropReason.PORT_DOWN.ordinal()] += count;
                mbufs.freeBurst(txBurst, count);
                continue;
            }
            if (taps != null) {
                Captures.transmitted(taps, workerId, port, txBurst, count, mbuf, nanos);
            }
            long bytes = 0;
            for (int i = 0; i < count; i++) {
                bytes += mbuf.wrap(txBurst[i]).dataLength();
            }
            int sent = tx.send(workerId, mbufs, txBurst, count);
            long sentBytes = sent == count ? bytes : bytes * sent / count;
            portCounters[port * 2] += sent;
            portCounters[port * 2 + 1] += sentBytes;
            workerCounters[Worker.TX_PACKETS] += sent;
            workerCounters[Worker.TX_BYTES] += sentBytes;
            drops[DropReason.TX_QUEUE_FULL.ordinal()] += count - sent;
        }
    }

    /** After an unexpected Throwable: frees what is staged, counted as dropped by a worker exception. */
    void discard() {
        for (int i = 0; i < stagedCount; i++) {
            mbufs.free(staged[i]);
            drops[DropReason.WORKER_EXCEPTION.ordinal()]++;
        }
        stagedCount = 0;
    }
}
