package io.edp.engine.worker;

import io.edp.engine.metrics.Counters;
import io.edp.engine.nic.NicDriver;

/**
 * One RX queue of a port as the workers see it. Exactly one worker polls it at a time; {@link #owner()} names
 * that worker and changes only through a handoff (the old owner lets go between bursts, then the new one
 * adopts it), which also hands over the single-writer counters.
 */
public final class RxQueue {

    public static final int PACKETS = 0;
    public static final int BYTES = 1;
    public static final int BUSY_NANOS = 2;

    private final int port;
    private final int queue;
    private final int numaNode;
    private final NicDriver driver;
    private final Counters counters = new Counters(3);
    private volatile int owner;

    public RxQueue(int port, int queue, int numaNode, NicDriver driver, int owner) {
        this.port = port;
        this.queue = queue;
        this.numaNode = numaNode;
        this.driver = driver;
        this.owner = owner;
    }

    public int port() {
        return port;
    }

    public int queue() {
        return queue;
    }

    public int numaNode() {
        return numaNode;
    }

    public NicDriver driver() {
        return driver;
    }

    public Counters counters() {
        return counters;
    }

    public int owner() {
        return owner;
    }

    void owner(int worker) {
        this.owner = worker;
    }
}
