package io.edp.engine.tlb;

/** An RX queue of a port: the unit the TLB moves between workers. */
public record QueueId(int port, int rxQueue) implements Comparable<QueueId> {

    @Override
    public int compareTo(QueueId other) {
        return port != other.port ? Integer.compare(port, other.port) : Integer.compare(rxQueue, other.rxQueue);
    }

    @Override
    public String toString() {
        return port + "/" + rxQueue;
    }
}
