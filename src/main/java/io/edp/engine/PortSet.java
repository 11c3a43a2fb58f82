package io.edp.engine;

import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.VnicAddress;
import io.edp.engine.worker.RxQueue;
import io.edp.engine.worker.TxPort;
import io.edp.engine.worker.Worker;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An engine's ports: each port's driver and TX port, its RX queues and which worker polls each (placed round
 * robin over the workers of the port's NUMA node), and the closing of a removed port. Read by stats on any
 * thread, changed by the engine's control methods.
 */
final class PortSet {

    private final MbufPool pool;
    private final NicDrivers driverKinds;
    private final int workerCount;
    private final Map<Integer, NicDriver> drivers = new ConcurrentSkipListMap<>();
    private final Map<Integer, TxPort> txPorts = new ConcurrentSkipListMap<>();
    private final List<RxQueue> queues = new CopyOnWriteArrayList<>();
    /** Round-robin position per NUMA node (-1: all workers) for placing new queues. */
    private final Map<Integer, Integer> placement = new TreeMap<>();
    /** Drivers of ports added by an apply that failed: a worker may still hold them, so they close with the engine. */
    private final List<NicDriver> retired = new ArrayList<>();

    PortSet(MbufPool pool, NicDrivers driverKinds, int workerCount) {
        this.pool = pool;
        this.driverKinds = driverKinds;
        this.workerCount = workerCount;
    }

    /** Opens {@code p}'s driver, filtering on {@code vnics}; not yet one of the set's ports ({@link #add}). */
    NicDriver open(PortConfig p, List<VnicAddress> vnics) {
        NicDriver driver = driverKinds.open(p, pool);
        driver.vnicsChanged(vnics);
        return driver;
    }

    /** The TX port over {@code driver}: one TX queue per worker, shared when workers outnumber them. */
    TxPort txPort(int port, NicDriver driver) {
        return new TxPort(port, driver, workerCount);
    }

    void add(int port, NicDriver driver, TxPort tx) {
        drivers.put(port, driver);
        txPorts.put(port, tx);
    }

    /** Running ports' drivers by port id. */
    Map<Integer, NicDriver> drivers() {
        return drivers;
    }

    /** Running ports' TX ports by port id. */
    Map<Integer, TxPort> txPorts() {
        return txPorts;
    }

    /** Every RX queue of the running ports. */
    List<RxQueue> queues() {
        return queues;
    }

    /** The driver of {@code port}. */
    NicDriver driver(int port) {
        NicDriver d = drivers.get(port);
        if (d == null) {
            throw new IllegalArgumentException("port: no port " + port);
        }
        return d;
    }

    /** RX queue {@code rxQueue} of {@code port}. */
    RxQueue queue(int port, int rxQueue) {
        RxQueue queue = null;
        for (RxQueue q : queues) {
            queue = q.port() == port && q.queue() == rxQueue ? q : queue;
        }
        if (queue == null) {
            throw new IllegalArgumentException("port/rxQueue: no RX queue " + rxQueue + " on port " + port);
        }
        return queue;
    }

    /**
     * Creates the RX queues of a port and picks their workers: round robin over the workers of the port's NUMA
     * node (over all workers when that node has none), continuing where the previous port left off.
     */
    List<RxQueue> placeQueues(PortConfig p, Worker[] workers) {
        List<Worker> local = new ArrayList<>();
        for (Worker w : workers) {
            if (w.numaNode() == p.numaNode()) {
                local.add(w);
            }
        }
        List<Worker> candidates = local.isEmpty() ? List.of(workers) : local;
        int node = local.isEmpty() ? -1 : p.numaNode();
        NicDriver driver = drivers.get(p.id());
        List<RxQueue> placed = new ArrayList<>();
        for (int q = 0; q < driver.rxQueueCount(); q++) {
            int next = placement.merge(node, 1, Integer::sum) - 1;
            Worker w = candidates.get(next % candidates.size());
            RxQueue queue = new RxQueue(p.id(), q, p.numaNode(), driver, w.id());
            queues.add(queue);
            placed.add(queue);
        }
        return placed;
    }

    /** Frees the frames still queued on a released port (bounded, the wire may still be sending), closes it. */
    void closePort(int port) {
        NicDriver driver = drivers.remove(port);
        txPorts.remove(port);
        MbufCache cache = new MbufCache(pool);
        int[] burst = new int[NicDriver.MAX_BURST];
        for (RxQueue q : queues) {
            if (q.port() == port) {
                queues.remove(q);
                for (int i = 0, n; i < 1024 && (n = driver.rxBurst(q.queue(), cache, burst, burst.length)) > 0; i++) {
                    cache.freeBurst(burst, n);
                }
            }
        }
        driver.close();
        cache.flush();
    }

    /** Keeps {@code opened} until {@link #close}: a worker may still send on them. */
    void retire(Collection<NicDriver> opened) {
        retired.addAll(opened);
    }

    /** Closes every driver, the retired ones included. */
    void close() {
        drivers.values().forEach(NicDriver::close);
        retired.forEach(NicDriver::close);
    }
}
