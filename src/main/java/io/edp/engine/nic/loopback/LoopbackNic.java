package io.edp.engine.nic.loopback;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.RxSteering;
import io.edp.engine.nic.VnicAddress;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * An in-memory NIC: each RX queue is a lock-free SPSC ring fed by this port's {@link TrafficGenerator} (the
 * "wire"), steered per frame by an {@link RxSteering}; every TX queue ends in this port's {@link TrafficSink}.
 * Frames are mbuf indices of the engine's pool; the generator allocates them from its own cache and the workers
 * free them into theirs, so buffers cross threads through the pool's bulk returns.
 */
public final class LoopbackNic implements NicDriver {

    public static final int DEFAULT_SINK_FLOWS = 1 << 18;

    private final int port;
    private final String name;
    private final MbufPool pool;
    private final RxSteering steering;
    private final SpscIntRing[] rings;
    private final int txQueues;
    private final Mbuf mbuf;
    private final TrafficSink sink;
    private TrafficGenerator generator;
    private MbufCache injector;
    private final Mbuf injectorMbuf;
    private final int[] burst = new int[1];

    public LoopbackNic(int port, String name, MbufPool pool, int rxQueues, int txQueues, int ringSize,
            RxSteering steering, int sinkFlows) {
        if (rxQueues <= 0 || txQueues <= 0) {
            throw new IllegalArgumentException("port " + name + ": rxQueues and txQueues must be positive");
        }
        this.port = port;
        this.name = name;
        this.pool = pool;
        this.steering = steering == null ? new FiveTupleSteering(rxQueues) : steering;
        this.rings = new SpscIntRing[rxQueues];
        for (int i = 0; i < rxQueues; i++) {
            rings[i] = new SpscIntRing(ringSize);
        }
        this.txQueues = txQueues;
        this.mbuf = new Mbuf(pool);
        this.injectorMbuf = new Mbuf(pool);
        this.sink = new TrafficSink(pool, sinkFlows, txQueues);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int rxQueueCount() {
        return rings.length;
    }

    @Override
    public int txQueueCount() {
        return txQueues;
    }

    /** Hands the vNICs to the steering: NetQueue steering installs their filters, live. */
    @Override
    public void vnicsChanged(List<VnicAddress> vnics) {
        steering.vnicsChanged(vnics);
    }

    public TrafficSink sink() {
        return sink;
    }

    /** Starts sending {@code profile} on a thread of its own; one generator per NIC at a time. */
    public synchronized TrafficGenerator startTraffic(TrafficProfile profile) {
        if (generator != null && !generator.finished()) {
            throw new IllegalStateException("port " + name + " already has a running traffic generator");
        }
        generator = new TrafficGenerator(profile, this, pool);
        generator.start();
        return generator;
    }

    /**
     * Puts one frame on the wire from the calling thread, e.g. a test's handmade frame; false when the pool or
     * the frame's RX ring is full (try again). Like the generator, only one producer thread at a time.
     */
    public synchronized boolean inject(MemorySegment frame, long offset, int length) {
        if (injector == null) {
            injector = new MbufCache(pool);
        }
        int index = injector.allocate();
        if (index < 0) {
            return false;
        }
        injectorMbuf.wrap(index).copyFrom(frame, offset, length);
        burst[0] = index;
        if (deliver(burst, 0, 1) == 1) {
            return true;
        }
        injector.free(index);
        return false;
    }

    /**
     * The wire: steers {@code mbufs[from, from + count)} to their RX queues, in order, stopping at the first
     * frame whose ring is full. Returns how many were taken. Called by one producer thread only.
     */
    int deliver(int[] mbufs, int from, int count) {
        for (int i = 0; i < count; i++) {
            Mbuf m = mbuf.wrap(mbufs[from + i]);
            int length = m.dataLength();
            int queue = steering.rxQueue(m.data(), m.dataAddress(), length);
            m.port(port).rxQueue(queue).rssHash(steering.rxHash(m.data(), m.dataAddress(), length));
            if (!rings[queue].offer(mbufs[from + i])) {
                return i;
            }
        }
        return count;
    }

    @Override
    public int rxBurst(int rxQueue, MbufCache cache, int[] mbufs, int max) {
        return rings[rxQueue].poll(mbufs, max);
    }

    @Override
    public int txBurst(int txQueue, MbufCache cache, int[] mbufs, int count) {
        sink.receive(txQueue, mbufs, count);
        cache.freeBurst(mbufs, count);
        return count;
    }

    @Override
    public synchronized void close() {
        TrafficGenerator g = generator;
        if (g != null) {
            g.stop();
        }
        if (injector != null) {
            injector.flush();
        }
    }
}
