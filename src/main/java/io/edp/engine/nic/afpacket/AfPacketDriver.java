package io.edp.engine.nic.afpacket;

import static io.edp.engine.nic.afpacket.PacketLayouts.ETH_P_ALL_BE;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_FANOUT;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_FANOUT_FLAG_DEFRAG;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_FANOUT_FLAG_UNIQUEID;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_FANOUT_HASH;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_IGNORE_OUTGOING;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_LOSS;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_QDISC_BYPASS;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_RX_RING;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_STATISTICS;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_TX_RING;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_VERSION;
import static io.edp.engine.nic.afpacket.PacketLayouts.REQ_BLOCK_NR;
import static io.edp.engine.nic.afpacket.PacketLayouts.REQ_BLOCK_SIZE;
import static io.edp.engine.nic.afpacket.PacketLayouts.REQ_FEATURE_REQ_WORD;
import static io.edp.engine.nic.afpacket.PacketLayouts.REQ_FRAME_NR;
import static io.edp.engine.nic.afpacket.PacketLayouts.REQ_FRAME_SIZE;
import static io.edp.engine.nic.afpacket.PacketLayouts.REQ_RETIRE_BLK_TOV;
import static io.edp.engine.nic.afpacket.PacketLayouts.STATS_DROPS;
import static io.edp.engine.nic.afpacket.PacketLayouts.TPACKET_REQ3;
import static io.edp.engine.nic.afpacket.PacketLayouts.TPACKET_STATS_V3;
import static io.edp.engine.nic.afpacket.PacketLayouts.TPACKET_V2;
import static io.edp.engine.nic.afpacket.PacketLayouts.TPACKET_V3;
import static io.edp.engine.nic.afpacket.PacketLayouts.TP_FT_REQ_FILL_RXHASH;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.Doorbell;
import io.edp.engine.nic.NicDriver;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A real Linux interface as a {@link NicDriver}, through PACKET_MMAP rings and the FFM API.
 *
 * <p>Each RX queue is its own packet socket with a TPACKET_V3 ring; with several queues the sockets join one
 * PACKET_FANOUT group in hash mode, so the kernel spreads flows over the queues as RSS spreads them over a
 * NIC's queues (each flow stays on one queue). Each TX queue is a TX-only socket (bound with protocol 0, so it
 * receives nothing) with a TPACKET_V2 ring kicked once per burst. RX sockets ignore frames this host sends
 * (PACKET_IGNORE_OUTGOING), so what the engine transmits never comes back in. A worker that sleeps waits in
 * poll(2) on its RX sockets (through its {@link Doorbell}): the kernel wakes it when a block is retired, full or
 * after the block-retire timeout. See docs/afpacket.md.
 */
public final class AfPacketDriver implements NicDriver {

    private static final int TX_FRAME_BYTES = 2048;
    private static final int TX_BLOCK_BYTES = 4096;
    /** The frame size V3 asks for only bounds one frame; blocks pack frames by their real length. */
    private static final int RX_FRAME_BYTES = 2048;

    private final AfPacketConfig config;
    private final MbufPool pool;
    private final Arena arena = Arena.ofShared();
    private final PacketSocket[] rxSockets;
    private final PacketSocket[] txSockets;
    private final RxRing[] rxRings;
    /** The RX sockets' descriptors, kept past close so a late detach still unwatches the right one. */
    private final int[] rxFds;
    private final TxRing[] txRings;
    private long rxRingDrops;

    private AfPacketDriver(AfPacketConfig config, MbufPool pool) {
        this.config = config;
        this.pool = pool;
        this.rxSockets = new PacketSocket[config.rxQueues()];
        this.txSockets = new PacketSocket[config.txQueues()];
        this.rxRings = new RxRing[config.rxQueues()];
        this.rxFds = new int[config.rxQueues()];
        this.txRings = new TxRing[config.txQueues()];
    }

    /**
     * Opens the interface's queues; frames received go into buffers of {@code pool} (the pool of every cache
     * passed to the bursts) and are stamped with {@code port}.
     *
     * @throws AfPacketException naming the interface, the step and errno (ENODEV, EPERM, interface down, ...)
     */
    public static AfPacketDriver open(AfPacketConfig config, int port, MbufPool pool) {
        AfPacketDriver driver = new AfPacketDriver(config, pool);
        try {
            driver.openQueues(port);
            return driver;
        } catch (RuntimeException e) {
            try {
                driver.close();
            } catch (RuntimeException teardown) {
                e.addSuppressed(teardown);
            }
            throw e;
        }
    }

    private void openQueues(int port) {
        String name = config.interfaceName();
        try (Arena setup = Arena.ofConfined()) {
            int interfaceIndex = PacketSocket.interfaceIndex(name, setup);
            int fanoutGroup = -1;
            for (int q = 0; q < rxRings.length; q++) {
                PacketSocket socket = PacketSocket.open(name, arena);
                rxSockets[q] = socket;
                rxFds[q] = socket.fd();
                if (q == 0) {
                    socket.requireUp(setup);
                }
                rxRings[q] = mapRxRing(socket, port, q, setup);
                socket.setIntIfSupported(PACKET_IGNORE_OUTGOING, 1, "PACKET_IGNORE_OUTGOING", setup);
                socket.bind(interfaceIndex, ETH_P_ALL_BE, setup);
                if (q == 0 && config.promiscuous()) {
                    socket.joinPromiscuous(interfaceIndex, setup);
                }
                if (rxRings.length > 1) {
                    fanoutGroup = joinFanout(socket, fanoutGroup, setup);
                }
            }
            for (int q = 0; q < txRings.length; q++) {
                PacketSocket socket = PacketSocket.open(name, arena);
                txSockets[q] = socket;
                txRings[q] = mapTxRing(socket, setup);
                socket.bind(interfaceIndex, (short) 0, setup);
            }
        }
    }

    private RxRing mapRxRing(PacketSocket socket, int port, int queue, Arena setup) {
        socket.setInt(PACKET_VERSION, TPACKET_V3, "PACKET_VERSION TPACKET_V3", setup);
        MemorySegment request = setup.allocate(TPACKET_REQ3);
        REQ_BLOCK_SIZE.set(request, 0L, config.rxBlockBytes());
        REQ_BLOCK_NR.set(request, 0L, config.rxBlockCount());
        REQ_FRAME_SIZE.set(request, 0L, RX_FRAME_BYTES);
        REQ_FRAME_NR.set(request, 0L, config.rxBlockBytes() / RX_FRAME_BYTES * config.rxBlockCount());
        REQ_RETIRE_BLK_TOV.set(request, 0L, config.rxBlockTimeoutMillis());
        REQ_FEATURE_REQ_WORD.set(request, 0L, TP_FT_REQ_FILL_RXHASH);
        socket.setOption(PACKET_RX_RING, request, "PACKET_RX_RING");
        MemorySegment ring = socket.map((long) config.rxBlockBytes() * config.rxBlockCount(), arena);
        return new RxRing(ring, config.rxBlockBytes(), config.rxBlockCount(), port, queue, pool);
    }

    private TxRing mapTxRing(PacketSocket socket, Arena setup) {
        socket.setInt(PACKET_VERSION, TPACKET_V2, "PACKET_VERSION TPACKET_V2", setup);
        socket.setInt(PACKET_LOSS, 1, "PACKET_LOSS", setup);
        if (config.qdiscBypass()) {
            socket.setInt(PACKET_QDISC_BYPASS, 1, "PACKET_QDISC_BYPASS", setup);
        }
        int frames = config.txFrameCount();
        MemorySegment request = setup.allocate(TPACKET_REQ3);
        REQ_BLOCK_SIZE.set(request, 0L, TX_BLOCK_BYTES);
        REQ_BLOCK_NR.set(request, 0L, frames / (TX_BLOCK_BYTES / TX_FRAME_BYTES));
        REQ_FRAME_SIZE.set(request, 0L, TX_FRAME_BYTES);
        REQ_FRAME_NR.set(request, 0L, frames);
        socket.setOption(PACKET_TX_RING, request, "PACKET_TX_RING");
        MemorySegment ring = socket.map((long) frames * TX_FRAME_BYTES, arena);
        return new TxRing(ring, TX_FRAME_BYTES, frames, socket, pool);
    }

    /** The first socket creates a group with a kernel-chosen unused id; the others join it by that id. */
    private static int joinFanout(PacketSocket socket, int group, Arena setup) {
        int mode = PACKET_FANOUT_HASH | PACKET_FANOUT_FLAG_DEFRAG;
        if (group >= 0) {
            socket.setInt(PACKET_FANOUT, group | mode << 16, "PACKET_FANOUT hash join", setup);
            return group;
        }
        socket.setInt(PACKET_FANOUT, (mode | PACKET_FANOUT_FLAG_UNIQUEID) << 16, "PACKET_FANOUT hash create", setup);
        MemorySegment value = setup.allocate(JAVA_INT);
        socket.getOption(PACKET_FANOUT, value, "PACKET_FANOUT", setup);
        return value.get(JAVA_INT, 0L) & 0xffff;
    }

    @Override
    public String name() {
        return config.interfaceName();
    }

    @Override
    public int rxQueueCount() {
        return rxRings.length;
    }

    @Override
    public int txQueueCount() {
        return txRings.length;
    }

    @Override
    public int rxBurst(int rxQueue, MbufCache cache, int[] mbufs, int max) {
        return rxRings[rxQueue].receive(cache, mbufs, max);
    }

    /** The queue's socket becomes readable when the kernel hands over a block: the doorbell waits on it. */
    @Override
    public boolean attachDoorbell(int rxQueue, Doorbell doorbell) {
        doorbell.watch(rxFds[rxQueue]);
        return true;
    }

    @Override
    public boolean detachDoorbell(int rxQueue, Doorbell doorbell) {
        doorbell.unwatch(rxFds[rxQueue]);
        return true;
    }

    @Override
    public int txBurst(int txQueue, MbufCache cache, int[] mbufs, int count) {
        return txRings[txQueue].transmit(cache, mbufs, count);
    }

    /** Frames copied out of the RX ring of {@code rxQueue}; read on the queue's thread or after it stopped. */
    public long rxPackets(int rxQueue) {
        return rxRings[rxQueue].packets();
    }

    /** Frames dropped on RX because they exceed a data room (GRO or jumbo frames). */
    public long rxOversized(int rxQueue) {
        return rxRings[rxQueue].oversized();
    }

    public long txPackets(int txQueue) {
        return txRings[txQueue].packets();
    }

    /** Frames dropped on TX because the ring was full (the kernel had not sent the frames yet). */
    public long txDropped(int txQueue) {
        return txRings[txQueue].dropped();
    }

    /** Failed kicks (sendto) and the errno of the last, as "ENOBUFS (...)"; 0 and "" when none failed. */
    public long txKickFailures(int txQueue) {
        return txRings[txQueue].kickFailures();
    }

    public String txLastKickError(int txQueue) {
        int errno = txRings[txQueue].lastKickErrno();
        return errno == 0 ? "" : Errno.describe(errno);
    }

    /**
     * Frames the kernel dropped because an RX ring had no free block (the engine did not keep up), summed over
     * queues since the driver opened. Safe from any thread.
     */
    public synchronized long rxRingDrops() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment stats = call.allocate(TPACKET_STATS_V3);
            for (PacketSocket socket : rxSockets) {
                if (socket == null) {
                    continue; // closed
                }
                socket.getOption(PACKET_STATISTICS, stats, "PACKET_STATISTICS", call);
                rxRingDrops += Integer.toUnsignedLong((int) STATS_DROPS.get(stats, 0L));
            }
        }
        return rxRingDrops;
    }

    /** Unmaps every ring and closes every socket (the kernel then drops promiscuous mode and the fanout group). */
    @Override
    public void close() {
        RuntimeException failure = null;
        failure = closeAll(rxSockets, failure);
        failure = closeAll(txSockets, failure);
        arena.close();
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException closeAll(PacketSocket[] sockets, RuntimeException failure) {
        for (int i = 0; i < sockets.length; i++) {
            if (sockets[i] == null) {
                continue;
            }
            try {
                sockets[i].close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
            sockets[i] = null;
        }
        return failure;
    }
}
