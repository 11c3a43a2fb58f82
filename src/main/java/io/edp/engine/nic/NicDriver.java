package io.edp.engine.nic;

import io.edp.engine.mbuf.MbufCache;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The boundary between the engine and packets: one port with numbered RX and TX queues, driven in bursts,
 * as DPDK's {@code rte_eth_rx_burst}/{@code rte_eth_tx_burst}. A queue is polled by one worker at a time, so
 * implementations need no locking per queue; different queues may be polled from different threads.
 */
public interface NicDriver extends AutoCloseable {

    /** The largest burst a worker asks for. */
    int MAX_BURST = 32;

    String name();

    int rxQueueCount();

    int txQueueCount();

    /**
     * Receives up to {@code max} frames from {@code rxQueue} into buffers taken from {@code cache}; their
     * indices go to {@code mbufs[0..n)}. Returns n (0 when the queue is empty or the pool is exhausted).
     */
    int rxBurst(int rxQueue, MbufCache cache, int[] mbufs, int max);

    /**
     * Transmits {@code mbufs[0..count)} on {@code txQueue}. Every buffer passed in is consumed: sent ones and
     * those the queue could not take go back to {@code cache}. Returns how many were sent.
     */
    int txBurst(int txQueue, MbufCache cache, int[] mbufs, int count);

    /**
     * The vNICs the engine switches to (every vNIC of its configuration), after the port opens and whenever
     * {@code apply} changes them; called on the control thread. A NIC with NetQueue filters steers each vNIC's
     * frames to a queue of its own; the others ignore it.
     */
    default void vnicsChanged(List<VnicAddress> vnics) {
    }

    /**
     * Owner thread of {@code rxQueue}: from now on wake {@code doorbell} when frames arrive on the queue (ring it,
     * or {@link Doorbell#watch watch} a descriptor); false when this NIC cannot signal (its poller must not sleep).
     */
    default boolean attachDoorbell(int rxQueue, Doorbell doorbell) {
        return false;
    }

    /** Owner thread: undoes {@link #attachDoorbell}; returns what it returned. */
    default boolean detachDoorbell(int rxQueue, Doorbell doorbell) {
        return false;
    }

    /**
     * The RX queue this NIC would put the frame {@code frame[offset, offset + length)} on (a packet trace names
     * the worker that owns it); a driver that cannot tell says 0.
     */
    default int rxQueue(MemorySegment frame, long offset, int length) {
        return 0;
    }

    @Override
    void close();
}
