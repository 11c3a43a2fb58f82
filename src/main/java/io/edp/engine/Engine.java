package io.edp.engine;

import io.edp.engine.fastpath.CachedFlow;
import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.metrics.Counters;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.VnicAddress;
import io.edp.engine.numa.CpuAffinity;
import io.edp.engine.numa.CpuSet;
import io.edp.engine.numa.WorkerPinning;
import io.edp.engine.packet.DropReason;
import io.edp.engine.reject.RejectReplies;
import io.edp.engine.slowpath.ActionTable;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.ForwardingTables;
import io.edp.engine.slowpath.ForwardingTables.SwitchPort;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.slowpath.SwitchingTable;
import io.edp.engine.slowpath.VlanOp;
import io.edp.engine.time.Clock;
import io.edp.engine.time.SystemClock;
import io.edp.engine.tlb.ThreadLoadBalancer;
import io.edp.engine.verifier.FlowVerifier;
import io.edp.engine.verifier.Mismatch;
import io.edp.engine.verifier.MismatchLog;
import io.edp.engine.worker.Generation;
import io.edp.engine.worker.RxQueue;
import io.edp.engine.worker.TxPort;
import io.edp.engine.worker.Worker;
import io.edp.engine.worker.WorkerHealth;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The data-path engine's facade: built from an {@link EngineConfig}, it opens each port's driver, starts the
 * workers (per NUMA node) and gives each RX queue to a worker of the port's node, round robin.
 * <ul>
 * <li>{@link #apply} publishes a new configuration as a new generation and returns once every worker has started
 *     an iteration under it (an RCU grace period): from then on no packet is handled by the old one. It is
 *     atomic: when a worker does not take the generation within {@link Worker#RESPONSE_DEADLINE}, the previous
 *     configuration stays and apply fails.</li>
 * <li>{@link #health} tells whether each worker is RUNNING, STALLED or DEAD; an engine with a worker that is not
 *     running refuses {@link #apply}: only a new engine heals it.</li>
 * <li>{@link #moveQueue} hands an RX queue to another worker without loss or reordering.</li>
 * <li>{@link #stats}, {@link #topFlows}, {@link #flushFlowCaches} serve the manager.</li>
 * <li>The engine's Thread Load Balancer runs as {@link EngineConfig#tlb()} says (off unless configured); apply
 *     reconfigures it live, keeping its history, and {@link EngineStats#tlb()} shows its decisions.</li>
 * </ul>
 * Control methods are serialized; none of them runs on the packet path.
 */
public final class Engine implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Engine.class.getName());
    private static final long STALL_NANOS = Worker.STALL_THRESHOLD.toNanos();

    private final Clock clock;
    private final MbufPool pool;
    private final ConnectionTable connections;
    private final Worker[] workers;
    private final NicDrivers driverKinds;
    // read by stats() on any thread, changed by apply() on the control thread
    private final Map<Integer, NicDriver> drivers = new ConcurrentSkipListMap<>();
    private final Map<Integer, TxPort> txPorts = new ConcurrentSkipListMap<>();
    private final List<RxQueue> queues = new CopyOnWriteArrayList<>();
    /** Round-robin position per NUMA node (-1: all workers) for placing new queues. */
    private final Map<Integer, Integer> placement = new TreeMap<>();
    private final ThreadLoadBalancer balancer;
    /** Drivers of ports added by an apply that failed: a worker may still hold them, so they close with the engine. */
    private final List<NicDriver> retired = new ArrayList<>();
    /** Workers without threads, run by {@link #step()}: see {@link #startStepped}. */
    private final boolean stepped;
    private volatile Generation current;
    private volatile EngineConfig config;
    private boolean closed;

    private Engine(EngineConfig config, NicDrivers driverKinds, Clock clock, ConnectionTable carried,
            boolean stepped) {
        this.clock = clock;
        this.stepped = stepped;
        this.config = config;
        this.driverKinds = driverKinds;
        this.pool = new MbufPool(config.mbufs(), config.mbufDescriptorBytes());
        this.connections = carried != null && carried.capacity() == config.conntrackCapacity() ? carried
                : new ConnectionTable(config.conntrackCapacity());
        this.workers = new Worker[config.workerCount()];
        int id = 0;
        for (Map.Entry<Integer, Integer> node : new TreeMap<>(config.workersPerNumaNode()).entrySet()) {
            for (int i = 0; i < node.getValue(); i++, id++) {
                workers[id] = new Worker(id, node.getKey(), clock, pool, () -> current);
            }
        }
        try {
            for (PortConfig p : config.ports()) {
                NicDriver driver = driverKinds.open(p, pool);
                drivers.put(p.id(), driver);
                driver.vnicsChanged(vnicAddresses(config));
                txPorts.put(p.id(), new TxPort(p.id(), driver, workers.length));
            }
            current = compile(config, 1, txPorts);
        } catch (RuntimeException e) {
            drivers.values().forEach(NicDriver::close);
            pool.close();
            throw e;
        }
        for (PortConfig p : config.ports()) {
            for (RxQueue queue : placeQueues(p)) {
                workers[queue.owner()].adopt(queue); // before the threads start
            }
        }
        if (!stepped) {
            for (Worker w : workers) {
                w.start();
            }
        }
        try {
            awaitAdoption(current);
        } catch (RuntimeException e) {
            for (Worker w : workers) {
                w.stop();
            }
            drivers.values().forEach(NicDriver::close);
            pool.close();
            throw e;
        }
        balancer = new ThreadLoadBalancer(config.tlb(), new EngineBalancing(this), InstantSource.system());
        if (!stepped) {
            balancer.start();
        }
    }

    /** Starts an engine on the system clock with the loopback driver available. */
    public static Engine start(EngineConfig config) {
        return start(config, NicDrivers.withLoopback(), SystemClock.INSTANCE);
    }

    public static Engine start(EngineConfig config, NicDrivers driverKinds, Clock clock) {
        return new Engine(config, driverKinds, clock, null, false);
    }

    /**
     * Starts an engine that takes over the connections of a previous one ({@link #connections()}, of an engine
     * closed first), so that rebuilding an engine (other workers, a port changed) cuts no connection. A table of
     * another capacity than {@code config.conntrackCapacity()} is not taken: the engine starts with an empty one.
     */
    public static Engine start(EngineConfig config, NicDrivers driverKinds, Clock clock, ConnectionTable carried) {
        return new Engine(config, driverKinds, clock, carried, false);
    }

    /**
     * Starts an engine for deterministic tests: its workers get no threads and its balancer never cycles by
     * itself. {@link #step()} runs one duty cycle of every worker on the caller's thread; starting, {@link #apply}
     * and {@link #sync} end their wait for the workers with one such step, and control requests run inline. With a
     * {@link io.edp.engine.time.ManualClock} nothing happens that the caller did not ask for, in an order it
     * chose, so a failing sequence of packets, clock moves and applies replays exactly. One thread drives it.
     */
    public static Engine startStepped(EngineConfig config, NicDrivers driverKinds, Clock clock) {
        return new Engine(config, driverKinds, clock, null, true);
    }

    /**
     * One duty cycle of every worker, in id order, on the caller's thread: adopt the current generation, poll
     * each owned RX queue once (a burst each), sweep. Returns the frames received. Only on a stepped engine.
     */
    public synchronized int step() {
        ensureOpen();
        if (!stepped) {
            throw new IllegalStateException("step: this engine's workers run on threads; use startStepped");
        }
        int received = 0;
        for (Worker w : workers) {
            received += w.doWork();
        }
        return received;
    }

    /**
     * Creates the RX queues of a port and picks their workers: round robin over the workers of the port's NUMA
     * node (over all workers when that node has none), continuing where the previous port left off.
     */
    private List<RxQueue> placeQueues(PortConfig p) {
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

    private Generation compile(EngineConfig c, int number, Map<Integer, TxPort> ports) {
        List<SwitchPort> switchPorts = new ArrayList<>();
        int n = c.vnics().size();
        long[] macs = new long[n];
        int[] vlans = new int[n];
        int[] portIds = new int[n];
        for (int i = 0; i < n; i++) {
            VnicConfig v = c.vnics().get(i);
            macs[i] = MacAddress.parse(v.mac(), "vnics[" + v.name() + "].mac");
            vlans[i] = v.vlan();
            portIds[i] = v.port();
        }
        for (PortConfig p : c.ports()) {
            VnicConfig vnic = null;
            for (VnicConfig v : c.vnics()) {
                vnic = v.port() == p.id() ? v : vnic;
            }
            switchPorts.add(new SwitchPort(p.id(), vnic == null, vnic == null ? 0 : vnic.vlan(),
                    vnic != null && vnic.adapter() == AdapterType.E1000));
        }
        ForwardingTables tables = new ForwardingTables(number, MacAddress.parse(c.routerMac(), "routerMac"),
                switchPorts, new SwitchingTable(macs, vlans, portIds), c.firewallRules(), c.routes(), connections);
        TxPort[] tx = new TxPort[PortConfig.MAX_PORT_ID + 1];
        for (TxPort port : ports.values()) {
            tx[port.id()] = port;
        }
        return new Generation(number, tables, c.mode() != Mode.LEGACY, c.mode() == Mode.EDP_DEDICATED, tx,
                c.flowCache().capacity(), c.flowCache().minExpiry().toMillis(), c.flowCache().maxExpiry().toMillis(),
                c.flowCache().verifierSampleRate());
    }

    /**
     * Makes {@code next} the running configuration: compiles it, publishes it as a new generation, and returns
     * the generation number once every worker has begun an iteration under it. All or nothing: a worker that is
     * not running refuses the apply before anything changes, and one that does not take the new generation within
     * {@link Worker#RESPONSE_DEADLINE} makes it fail with the previous configuration published again (under a
     * new number, since the workers that took the failed one cached entries under its number); either way the
     * engine needs rebuilding ({@link #health}). Everything changes live except
     * the workers and the pool and conntrack sizes: ports may come and go (a port's own settings are fixed; remove
     * it and add it again to change them). A removed port's queues are released before the publish and its
     * driver closed after the grace period; an added port's queues are placed after it. When the vNICs change,
     * every running port's driver hears of it after the grace period ({@link NicDriver#vnicsChanged}), so
     * NetQueue filters follow them.
     */
    public synchronized int apply(EngineConfig next) {
        ensureOpen();
        if (!next.workersPerNumaNode().equals(config.workersPerNumaNode())) {
            throw new IllegalArgumentException(
                    "workersPerNumaNode: cannot change on a running engine; build a new engine");
        }
        if (next.conntrackCapacity() != config.conntrackCapacity() || next.mbufs() != config.mbufs()) {
            throw new IllegalArgumentException("conntrackCapacity and mbufs: cannot change on a running engine");
        }
        List<PortConfig> added = new ArrayList<>();
        List<Integer> removed = new ArrayList<>(drivers.keySet());
        for (PortConfig p : next.ports()) {
            PortConfig running = config.ports().stream().filter(r -> r.id() == p.id()).findFirst().orElse(null);
            if (running == null) {
                added.add(p);
            } else if (!running.equals(p)) {
                throw new IllegalArgumentException("ports[id=" + p.id() + "]: a running port cannot change; remove "
                        + "it, then add it again");
            }
            removed.remove((Integer) p.id());
        }
        Optional<WorkerHealth> fault = fault();
        if (fault.isPresent()) {
            throw new IllegalStateException(fault.get().reason() + "; the engine must be rebuilt");
        }
        Map<Integer, NicDriver> opened = new TreeMap<>();
        Generation g;
        try {
            Map<Integer, TxPort> ports = new TreeMap<>(txPorts);
            removed.forEach(ports::remove);
            for (PortConfig p : added) {
                NicDriver driver = driverKinds.open(p, pool);
                opened.put(p.id(), driver);
                driver.vnicsChanged(vnicAddresses(next));
                ports.put(p.id(), new TxPort(p.id(), driver, workers.length));
            }
            g = compile(next, current.number() + 1, ports);
        } catch (RuntimeException e) {
            opened.values().forEach(NicDriver::close);
            throw e;
        }
        EngineConfig previous = config;
        List<RxQueue> released = new ArrayList<>();
        try {
            for (RxQueue q : queues) {
                if (removed.contains(q.port())) {
                    workers[q.owner()].execute(w -> w.release(q));
                    released.add(q);
                }
            }
            current = g;
            config = next;
            awaitAdoption(g);
        } catch (RuntimeException e) {
            rollBack(previous, g, released, opened.values(), e);
            throw e;
        }
        if (!next.vnics().equals(previous.vnics())) {
            // NetQueue filters follow the vNICs on the running ports, whose other settings are fixed
            List<VnicAddress> vnics = vnicAddresses(next);
            for (Map.Entry<Integer, NicDriver> port : drivers.entrySet()) {
                if (!removed.contains(port.getKey())) {
                    port.getValue().vnicsChanged(vnics);
                }
            }
        }
        for (PortConfig p : added) {
            drivers.put(p.id(), opened.get(p.id()));
            txPorts.put(p.id(), g.txPort(p.id()));
            for (RxQueue queue : placeQueues(p)) {
                workers[queue.owner()].execute(w -> w.adopt(queue));
            }
        }
        for (int port : removed) {
            closePort(port);
        }
        balancer.reconfigure(next.tlb());
        return g.number();
    }

    /**
     * After {@code failed} was not taken by every worker (or not even published): publishes {@code previous} again
     * and keeps the drivers opened for {@code failed} until the engine closes (a worker that took it may still
     * send on them), or closes them when no worker saw it; gives the released queues back. Best effort: what fails
     * here is added to {@code failure}.
     */
    private void rollBack(EngineConfig previous, Generation failed, List<RxQueue> released,
            Collection<NicDriver> opened, RuntimeException failure) {
        if (current == failed) {
            current = compile(previous, failed.number() + 1, txPorts);
            config = previous;
            retired.addAll(opened);
        } else {
            opened.forEach(NicDriver::close);
        }
        for (RxQueue q : released) {
            try {
                workers[q.owner()].execute(w -> w.adopt(q));
            } catch (RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
    }

    private static List<VnicAddress> vnicAddresses(EngineConfig c) {
        List<VnicAddress> addresses = new ArrayList<>();
        for (VnicConfig v : c.vnics()) {
            addresses.add(v.address());
        }
        return addresses;
    }

    /** Frees the frames still queued on a released port (bounded, the wire may still be sending), closes it. */
    private void closePort(int port) {
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

    /**
     * Returns once every worker has started a new iteration. Counters are plain per-worker longs; the workers'
     * iteration epochs are volatile, so a {@link #stats()} taken after this includes every packet handled
     * before it was called.
     *
     * @throws IllegalStateException when a worker is dead or begins no iteration within
     *                               {@link Worker#RESPONSE_DEADLINE}
     */
    public void sync() {
        long[] seen = new long[workers.length];
        for (int i = 0; i < workers.length; i++) {
            seen[i] = workers[i].epoch();
        }
        awaitWorkers("begin an iteration", w -> w.epoch() != seen[w.id()]);
    }

    /** Waits until every worker runs {@code g}: none handles a packet under an older generation any more. */
    private void awaitAdoption(Generation g) {
        awaitWorkers("take generation " + g.number(), w -> w.adoptedGeneration() == g.number());
    }

    /**
     * Waits until {@code done} holds for every worker, waking parked ones; throws as soon as one is dead, or when
     * {@link Worker#RESPONSE_DEADLINE} has passed, naming the worker and its health.
     */
    private void awaitWorkers(String what, Predicate<Worker> done) {
        if (stepped) {
            step(); // every worker begins an iteration, on this thread
        }
        long deadline = System.nanoTime() + Worker.RESPONSE_DEADLINE.toNanos();
        for (Worker w : workers) {
            while (!done.test(w)) {
                long now = System.nanoTime();
                WorkerHealth health = w.health(now, STALL_NANOS);
                if (health.state() == WorkerHealth.State.DEAD) {
                    throw new IllegalStateException(health.reason());
                }
                if (now - deadline > 0) {
                    throw new IllegalStateException("worker " + w.id() + " did not " + what + " within "
                            + Worker.RESPONSE_DEADLINE.toSeconds() + " s"
                            + (health.isRunning() ? "" : " (" + health.reason() + ")"));
                }
                w.wake();
                LockSupport.parkNanos(10_000);
            }
        }
    }

    /**
     * Each worker's health now: RUNNING, STALLED (no iteration for {@link Worker#STALL_THRESHOLD} since the engine
     * last looked) or DEAD (its thread ended), with the reason. Any thread; calling it now and then (the manager
     * does, every sweep) is what notices a stall.
     */
    public List<WorkerHealth> health() {
        long now = System.nanoTime();
        List<WorkerHealth> health = new ArrayList<>(workers.length);
        for (Worker w : workers) {
            health.add(w.health(now, STALL_NANOS));
        }
        return List.copyOf(health);
    }

    /** The first worker that is not running, if any: an engine with one needs rebuilding. */
    public Optional<WorkerHealth> fault() {
        for (WorkerHealth h : health()) {
            if (!h.isRunning()) {
                return Optional.of(h);
            }
        }
        return Optional.empty();
    }

    /**
     * Test seam: the next burst that worker {@code worker} takes throws {@code fault} mid-pipeline (see
     * {@link Worker#injectFault}); an {@link InternalError} kills the worker, other errors are survived.
     */
    public void injectFault(int worker, Error fault) {
        workers[worker].injectFault(fault);
    }

    /**
     * Test seam: worker {@code worker}'s cached flows now drop their packets as NO_ROUTE, whatever the slow path
     * says (see {@link FlowCache#corrupt}); the live verifier reports each sampled hit as a mismatch.
     */
    public void corruptFlowCache(int worker) {
        workers[worker].execute(w -> w.flowCache().corrupt(w.actions().intern(-1, VlanOp.NONE, 0, false, 0, 0, false,
                DropReason.NO_ROUTE.ordinal(), 0)));
    }

    /**
     * Hands RX queue {@code rxQueue} of {@code port} to worker {@code toWorker} and returns when the new owner
     * polls it: the old owner finishes its burst (transmit included) and lets go first, so no frame is lost
     * (it waits in the ring) and none overtakes another of its flow.
     */
    public synchronized void moveQueue(int port, int rxQueue, int toWorker) {
        ensureOpen();
        if (toWorker < 0 || toWorker >= workers.length) {
            throw new IllegalArgumentException(
                    "toWorker: no worker " + toWorker + " (0.." + (workers.length - 1) + ")");
        }
        RxQueue queue = null;
        for (RxQueue q : queues) {
            queue = q.port() == port && q.queue() == rxQueue ? q : queue;
        }
        if (queue == null) {
            throw new IllegalArgumentException("port/rxQueue: no RX queue " + rxQueue + " on port " + port);
        }
        RxQueue moving = queue;
        int from = moving.owner();
        if (from == toWorker) {
            return;
        }
        workers[from].execute(w -> w.release(moving));
        workers[toWorker].execute(w -> w.adopt(moving));
    }

    /** Empties every worker's flow cache; the next packet of each flow runs the IOChain. */
    public synchronized void flushFlowCaches() {
        ensureOpen();
        for (Worker w : workers) {
            w.execute(Worker::flushFlowCache);
        }
    }

    /** The {@code n} flows with most packets over all workers' caches (entries of older generations included). */
    public synchronized List<FlowStats> topFlows(int n) {
        ensureOpen();
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0: " + n);
        }
        List<FlowStats> all = new ArrayList<>();
        int generation = current.number() & 0xFFFF;
        for (Worker w : workers) {
            w.execute(worker -> {
                FlowCache cache = worker.flowCache();
                if (cache == null) {
                    return;
                }
                ActionTable actions = worker.actions();
                for (CachedFlow f : cache.topFlows(n)) {
                    String action = f.generation() == generation && f.actionIndex() < actions.size()
                            ? actions.get(f.actionIndex()).toString() : "stale (revalidated on next hit)";
                    all.add(new FlowStats(worker.id(), f.flow(), f.packets(), f.bytes(), action));
                }
            });
        }
        all.sort(Comparator.comparingLong(FlowStats::packets).reversed());
        return List.copyOf(all.subList(0, Math.min(n, all.size())));
    }

    /** A snapshot of every counter; safe to call from any thread at any time. */
    public EngineStats stats() {
        long now = clock.nanoTime();
        Generation g = current;
        List<EngineStats.WorkerStats> workerStats = new ArrayList<>();
        EngineStats.FlowCacheStats totalCache = new EngineStats.FlowCacheStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        List<Mismatch> mismatches = new ArrayList<>();
        long[] totalDrops = new long[DropReason.count()];
        long[] rejectReplies = new long[RejectReplies.COUNTER_COUNT];
        Map<Integer, long[]> portTx = new TreeMap<>();
        List<WorkerHealth> health = health();
        for (Worker w : workers) {
            long[] c = w.counters().snapshot();
            long[] f = w.flowCacheCounters().snapshot();
            long[] v = w.verifier().counters().snapshot();
            mismatches.addAll(w.verifier().mismatches().recent());
            long[] d = w.drops().snapshot();
            for (int i = 0; i < d.length; i++) {
                totalDrops[i] += d[i];
            }
            long[] r = w.rejectReplyCounters().snapshot();
            for (int i = 0; i < r.length; i++) {
                rejectReplies[i] += r[i];
            }
            Counters ports = w.portCounters();
            for (Integer port : drivers.keySet()) {
                long[] tx = portTx.computeIfAbsent(port, p -> new long[2]);
                tx[0] += ports.read(port * 2);
                tx[1] += ports.read(port * 2 + 1);
            }
            EngineStats.FlowCacheStats cache = new EngineStats.FlowCacheStats(f[FlowCache.HITS], f[FlowCache.MISSES],
                    f[FlowCache.SLOW_PATH], f[FlowCache.INSERTIONS], f[FlowCache.INSERTION_FAILURES],
                    f[FlowCache.EVICTIONS], f[FlowCache.EXPIRATIONS], f[FlowCache.REVALIDATIONS], f[FlowCache.ENTRIES],
                    g.fastPath() ? g.flowCacheCapacity() : 0, v[FlowVerifier.CHECKS], v[FlowVerifier.MISMATCHES]);
            totalCache = totalCache.plus(cache);
            List<String> owned = new ArrayList<>();
            for (RxQueue q : queues) {
                if (q.owner() == w.id()) {
                    owned.add(q.port() + "/" + q.queue());
                }
            }
            workerStats.add(new EngineStats.WorkerStats(w.id(), w.numaNode(), c[Worker.RX_PACKETS], c[Worker.RX_BYTES],
                    c[Worker.TX_PACKETS], c[Worker.TX_BYTES], c[Worker.BUSY_NANOS], now - w.startedNanos(),
                    c[Worker.ITERATIONS], c[Worker.EXCEPTIONS], c[Worker.IOCHAIN_PACKETS], cache, dropMap(d),
                    List.copyOf(owned), health.get(w.id())));
        }
        List<EngineStats.QueueStats> queueStats = new ArrayList<>();
        Map<Integer, long[]> portRx = new TreeMap<>();
        for (RxQueue q : queues) {
            Counters c = q.counters();
            long packets = c.read(RxQueue.PACKETS);
            long bytes = c.read(RxQueue.BYTES);
            queueStats.add(new EngineStats.QueueStats(q.port(), q.queue(), q.numaNode(), q.owner(), packets, bytes,
                    c.read(RxQueue.BUSY_NANOS)));
            long[] rx = portRx.computeIfAbsent(q.port(), p -> new long[2]);
            rx[0] += packets;
            rx[1] += bytes;
        }
        List<EngineStats.PortStats> portStats = new ArrayList<>();
        EngineConfig c = config;
        for (PortConfig p : c.ports()) {
            long[] rx = portRx.getOrDefault(p.id(), new long[2]);
            long[] tx = portTx.getOrDefault(p.id(), new long[2]);
            portStats.add(new EngineStats.PortStats(p.id(), p.name(), p.numaNode(), rx[0], rx[1], tx[0], tx[1]));
        }
        return new EngineStats(Instant.now(), now, g.number(), c.mode(), List.copyOf(workerStats),
                List.copyOf(queueStats), List.copyOf(portStats), totalCache, dropMap(totalDrops), connections.size(),
                balancer.stats(), new EngineStats.RejectReplyStats(rejectReplies[RejectReplies.SENT],
                        rejectReplies[RejectReplies.RATE_LIMITED], rejectReplies[RejectReplies.NO_BUFFER]),
                MismatchLog.latest(mismatches));
    }

    private static Map<DropReason, Long> dropMap(long[] counts) {
        Map<DropReason, Long> map = new EnumMap<>(DropReason.class);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] != 0) {
                map.put(DropReason.of(i), counts[i]);
            }
        }
        return Map.copyOf(map);
    }

    /** The driver of {@code port}, e.g. a loopback NIC to start traffic on. */
    public NicDriver driver(int port) {
        NicDriver d = drivers.get(port);
        if (d == null) {
            throw new IllegalArgumentException("port: no port " + port);
        }
        return d;
    }

    public synchronized EngineConfig config() {
        return config;
    }

    public int generation() {
        return current.number();
    }

    /** The connection table, to hand over to the engine that replaces this one. */
    public ConnectionTable connections() {
        return connections;
    }

    public int workerCount() {
        return workers.length;
    }

    /** The worker threads' ids, so a benchmark can charge their CPU time (ThreadMXBean) and nothing else. */
    public long[] workerThreadIds() {
        long[] ids = new long[workers.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = workers[i].threadId();
        }
        return ids;
    }

    /**
     * Pins every worker thread to the CPUs of its NUMA node when {@code pinning} is enabled (off by default),
     * and returns the CPUs each worker may run on afterwards, as the kernel reports them; empty when disabled.
     */
    public synchronized Map<Integer, CpuSet> pinWorkers(WorkerPinning pinning) {
        ensureOpen();
        Map<Integer, CpuSet> affinity = new TreeMap<>();
        if (!pinning.enabled()) {
            return affinity;
        }
        for (Worker w : workers) {
            w.execute(worker -> {
                pinning.pinToNode(worker.numaNode());
                affinity.put(worker.id(), CpuAffinity.currentThreadAffinity());
            });
        }
        return affinity;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("engine is closed");
        }
    }

    /**
     * Stops the balancer (outside the engine's lock: a cycle in progress may be waiting for it to move a queue),
     * then the workers, then the drivers, then frees the packet memory. A stalled worker that does not stop within
     * {@link Worker#RESPONSE_DEADLINE} is abandoned, so closing never hangs.
     */
    @Override
    public void close() {
        balancer.close();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            for (Worker w : workers) {
                if (!w.stop()) {
                    LOG.log(System.Logger.Level.WARNING, "worker " + w.id() + " did not stop within "
                            + Worker.RESPONSE_DEADLINE.toSeconds() + " s; abandoned");
                }
            }
            for (NicDriver d : drivers.values()) {
                d.close();
            }
            retired.forEach(NicDriver::close);
            pool.close();
        }
    }
}
