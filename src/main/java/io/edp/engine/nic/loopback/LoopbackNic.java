package io.edp.engine.nic.loopback;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.Doorbell;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.RxSteering;
import io.edp.engine.nic.VnicAddress;
import io.edp.engine.numa.CpuSet;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * An in-memory NIC: each RX queue is a pair of lock-free SPSC rings, as an AF_XDP socket's fill and RX rings
 * (or a DPDK NIC's RX descriptor ring): the driver, on the polling worker's thread, posts empty buffers from that
 * worker's own {@link MbufCache} into the fill ring; the wire — this port's {@link TrafficGenerator}, steered per
 * frame by an {@link RxSteering} — writes each frame into a posted buffer's data room, as a NIC's DMA does, and
 * hands back the buffer with its length and RSS hash. The driver then fills in the descriptor on the worker's
 * thread. So a descriptor never leaves the worker's core; only frame bytes cross from the wire's core. Every TX
 * queue ends in this port's {@link TrafficSink}.
 * <p>
 * The wire hands a burst's frames to each RX queue together: it publishes them with one move of the ring's tail
 * and rings the queue's {@link Doorbell} once (a fence and a read; a wake-up only when the worker sleeps), as a NIC
 * writes back a batch of descriptors and raises one interrupt for it.
 */
public final class LoopbackNic implements NicDriver {

    public static final int DEFAULT_SINK_FLOWS = 1 << 18;

    /**
     * Heap a port with the default sink holds at most, dominated by the sink's per-flow pages once traffic has
     * reached every page (the rings are KiBs).
     */
    public static long bytes() {
        return TrafficSink.bytes(DEFAULT_SINK_FLOWS);
    }
    /**
     * Buffers kept posted per RX queue are the ring size, but at most this share of the pool, so that many idle
     * queues do not hold the whole pool (DPDK asks the mempool to cover every ring; a test's small pool cannot).
     */
    private static final int POOL_SHARE = 16;
    /**
     * A queue's ring is topped up once this many posted buffers are missing (half the ring at most), as DPDK's
     * drivers refill their RX descriptors {@code rx_free_thresh} at a time: two bursts a refill instead of one
     * halves the fill ring's line transfers to the wire's core (lower in all 25 interleaved runs of
     * docs/benchmarks.md's eighteenth round).
     */
    static final int REFILL_BATCH = 2 * NicDriver.MAX_BURST;

    private final int port;
    private final String name;
    private final MbufPool pool;
    private final RxSteering steering;
    private final WireQueue[] queues;
    private final int txQueues;
    private final TrafficSink sink;
    private TrafficGenerator generator;
    private volatile TransmitCapture capture;

    /** One RX queue: the rings, and what its (single) polling worker uses to fill descriptors and post buffers. */
    private static final class WireQueue {
        final SpscIntRing fill;
        final SpscIntRing rx;
        final int depth;
        /** Missing posted buffers at which the polling worker tops the ring up ({@link #post}). */
        final int refillBatch;
        final Mbuf mbuf;
        final int[] post;
        /** The polling worker's doorbell, null when none is attached. */
        volatile Doorbell doorbell;
        // padding keeps the worker's count below off the line of the fields above, which the wire reads at every
        // burst: a count the worker writes at every burst beside them cost a line transfer each way a burst
        private long p01, p02, p03, p04, p05, p06, p07;
        /** Buffers posted to the fill ring and not yet received back: the wire owns them. The worker's only. */
        long outstanding;
        private long p11, p12, p13, p14, p15, p16, p17;

        WireQueue(MbufPool pool, int ringSize) {
            fill = new SpscIntRing(ringSize);
            // twice what it can ever hold (the posted buffers), so that the wire re-reads the worker's position in
            // it (a line the worker writes at every burst) once a ring's worth of frames, not at every burst
            rx = new SpscIntRing(2 * ringSize);
            depth = Math.min(ringSize, Math.max(NicDriver.MAX_BURST, pool.capacity() / POOL_SHARE));
            refillBatch = Math.max(1, Math.min(REFILL_BATCH, depth / 2));
            mbuf = new Mbuf(pool);
            post = new int[depth];
        }
    }

    public LoopbackNic(int port, String name, MbufPool pool, int rxQueues, int txQueues, int ringSize,
            RxSteering steering, int sinkFlows) {
        if (rxQueues <= 0 || txQueues <= 0) {
            throw new IllegalArgumentException("port " + name + ": rxQueues and txQueues must be positive");
        }
        this.port = port;
        this.name = name;
        this.pool = pool;
        this.steering = steering == null ? new FiveTupleSteering(rxQueues) : steering;
        this.queues = new WireQueue[rxQueues];
        for (int i = 0; i < rxQueues; i++) {
            queues[i] = new WireQueue(pool, ringSize);
        }
        this.txQueues = txQueues;
        this.sink = new TrafficSink(pool, sinkFlows, txQueues);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int rxQueueCount() {
        return queues.length;
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

    /**
     * From now on keeps a copy of every frame this port transmits, up to {@code frames} between two
     * {@link #takeTransmitted()} calls (space taken now; transmitting still allocates nothing). For tests that
     * compare what leaves byte for byte.
     */
    public void captureTransmitted(int frames) {
        capture = new TransmitCapture(pool, frames);
    }

    /**
     * The frames transmitted since capturing began or since the last call, in transmit order; fails if more
     * were sent than the capture holds. Read on the thread that steps the engine, or after {@code Engine.sync()}.
     */
    public List<byte[]> takeTransmitted() {
        TransmitCapture c = capture;
        if (c == null) {
            throw new IllegalStateException("port " + name + " is not capturing; call captureTransmitted first");
        }
        return c.take();
    }

    /** Starts sending {@code profile} on a thread of its own; one generator per NIC at a time. */
    public TrafficGenerator startTraffic(TrafficProfile profile) {
        return startTraffic(profile, CpuSet.of());
    }

    /**
     * Starts sending {@code profile} on a thread of its own that runs only on {@code cpus} (empty: wherever the
     * scheduler puts it), so that a benchmark can keep the traffic source off its worker's CPU.
     */
    public synchronized TrafficGenerator startTraffic(TrafficProfile profile, CpuSet cpus) {
        if (generator != null && !generator.finished()) {
            throw new IllegalStateException("port " + name + " already has a running traffic generator");
        }
        generator = new TrafficGenerator(profile, this);
        generator.start(cpus);
        return generator;
    }

    /**
     * Puts one frame on the wire from the calling thread, e.g. a test's handmade frame; false when its RX queue
     * has no posted buffer (its worker has not polled yet, or the queue is full: try again). Like the generator,
     * only one producer thread at a time.
     */
    public synchronized boolean inject(MemorySegment frame, long offset, int length) {
        boolean delivered = deliver(frame, offset, length);
        ringDoorbells();
        return delivered;
    }

    /**
     * The wire, before a burst of {@code count} frames: stores into the first line of each of the next posted
     * buffers, in a loop of nothing else, so that taking those lines back from the worker's core overlaps.
     */
    void claim(int count) {
        if (queues.length != 1) {
            return;
        }
        SpscIntRing fill = queues[0].fill;
        int n = fill.readable(count);
        MemorySegment rooms = pool.dataRooms();
        for (int i = 0; i < n; i++) {
            rooms.set(ValueLayout.JAVA_BYTE, postedFrame(fill.index(i)), (byte) 0);
        }
    }

    /**
     * The wire: steers the frame at {@code frame[offset, offset + length)} to its RX queue and writes it into a
     * buffer that queue's driver posted; false when none is posted (the worker is behind: push back, retry). The
     * worker sees it after {@link #ringDoorbells}. Called by one producer thread only.
     */
    boolean deliver(MemorySegment frame, long offset, int length) {
        if (length > MbufPool.DATA_ROOM_BYTES - MbufPool.HEADROOM_BYTES) {
            throw new IllegalArgumentException("frame of " + length + " bytes does not fit a data room");
        }
        WireQueue q = queues[steering.rxQueue(frame, offset, length)];
        int index = q.fill.poll();
        if (index < 0) {
            return false;
        }
        MemorySegment.copy(frame, offset, pool.dataRooms(), postedFrame(index), length);
        long hash = steering.rxHash(frame, offset, length);
        q.rx.stage(index, hash << 32 | length); // never full: it holds at most the buffers that were posted
        return true;
    }

    /**
     * Where the wire writes a frame into posted buffer {@code index}: at the default headroom, as a NIC writes at
     * the mbuf's data offset.
     */
    private long postedFrame(int index) {
        return pool.dataRoomAddress(index) + MbufPool.HEADROOM_BYTES;
    }

    /**
     * The wire, after a burst: publishes the frames of every RX queue it put frames on since the last ring, and
     * wakes the queue's worker.
     */
    void ringDoorbells() {
        for (WireQueue q : queues) {
            if (q.rx.publish()) {
                Doorbell d = q.doorbell;
                if (d != null) {
                    d.ring();
                }
            }
        }
    }

    @Override
    public int rxQueue(MemorySegment frame, long offset, int length) {
        return steering.rxQueue(frame, offset, length);
    }

    @Override
    public boolean attachDoorbell(int rxQueue, Doorbell doorbell) {
        queues[rxQueue].doorbell = doorbell;
        return true;
    }

    @Override
    public boolean detachDoorbell(int rxQueue, Doorbell doorbell) {
        queues[rxQueue].doorbell = null;
        return true;
    }

    @Override
    public int rxBurst(int rxQueue, MbufCache cache, int[] mbufs, int max) {
        WireQueue q = queues[rxQueue];
        SpscIntRing rx = q.rx;
        int n = rx.readable(max);
        for (int i = 0; i < n; i++) { // read in place: a copy of the ring's lines first cost a loop of its own
            int index = rx.index(i);
            long meta = rx.meta(i);
            mbufs[i] = index;
            q.mbuf.wrap(index).received(port, rxQueue, (int) meta, (int) (meta >>> 32));
        }
        // an empty poll stores nothing but a due top-up: a wire barely slower than its worker, meeting the
        // worker's stores to the ring's head at every frame, fell far behind
        if (n > 0) {
            rx.consume(n);
            q.outstanding -= n;
        }
        if (q.depth - q.outstanding >= q.refillBatch) {
            post(q, cache);
        }
        return n;
    }

    /**
     * Tops the queue's fill ring up to its depth with buffers from the polling worker's cache, as they are: the
     * descriptor is written whole when a frame arrives in the buffer ({@link #rxBurst}).
     */
    private static void post(WireQueue q, MbufCache cache) {
        int count = 0;
        while (q.outstanding + count < q.depth) {
            int index = cache.allocateRaw();
            if (index < 0) {
                break; // pool exhausted: post the rest on a later poll
            }
            q.post[count++] = index;
        }
        if (count > 0) {
            q.fill.offerAll(q.post, count);
            q.outstanding += count;
        }
    }

    @Override
    public int txBurst(int txQueue, MbufCache cache, int[] mbufs, int count) {
        sink.receive(txQueue, mbufs, count);
        TransmitCapture c = capture;
        if (c != null) {
            c.record(mbufs, count);
        }
        cache.freeBurst(mbufs, count);
        return count;
    }

    /** Stops the wire and gives every buffer still posted or received-but-unpolled back to the pool. */
    @Override
    public synchronized void close() {
        TrafficGenerator g = generator;
        if (g != null) {
            g.stop();
        }
        int[] reclaimed = new int[1];
        for (WireQueue q : queues) {
            while ((reclaimed[0] = q.fill.poll()) >= 0) {
                pool.returnBulk(reclaimed, 0, 1);
            }
            while (q.rx.readable(1) == 1) {
                reclaimed[0] = q.rx.index(0);
                q.rx.consume(1);
                pool.returnBulk(reclaimed, 0, 1);
            }
            q.outstanding = 0;
        }
    }
}
