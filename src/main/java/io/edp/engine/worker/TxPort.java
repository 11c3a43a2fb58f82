package io.edp.engine.worker;

import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.nic.NicDriver;

/**
 * A port as transmit sees it. Worker {@code w} sends on TX queue {@code w % txQueueCount}; when workers
 * outnumber the queues, a queue's burst is sent under that queue's monitor (one lock per burst, not per packet).
 */
public final class TxPort {

    private final int id;
    private final NicDriver driver;
    private final Object[] queueLocks;

    public TxPort(int id, NicDriver driver, int workers) {
        this.id = id;
        this.driver = driver;
        int queues = driver.txQueueCount();
        this.queueLocks = workers > queues ? new Object[queues] : null;
        if (queueLocks != null) {
            for (int i = 0; i < queues; i++) {
                queueLocks[i] = new Object();
            }
        }
    }

    public int id() {
        return id;
    }

    public NicDriver driver() {
        return driver;
    }

    int queueFor(int worker) {
        return worker % driver.txQueueCount();
    }

    /** Sends a burst for {@code worker}; returns how many left. */
    int send(int worker, MbufCache cache, int[] mbufs, int count) {
        int queue = queueFor(worker);
        if (queueLocks == null) {
            return driver.txBurst(queue, cache, mbufs, count);
        }
        synchronized (queueLocks[queue]) {
            return driver.txBurst(queue, cache, mbufs, count);
        }
    }
}
