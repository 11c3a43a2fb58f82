package io.edp.engine;

import io.edp.engine.capture.CaptureSession;
import io.edp.engine.capture.CaptureSpec;
import io.edp.engine.capture.Captures;
import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.Doorbell;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.VnicAddress;
import io.edp.engine.numa.CpuAffinity;
import io.edp.engine.numa.CpuSet;
import io.edp.engine.numa.WorkerPinning;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packetlog.PacketLog;
import io.edp.engine.slowpath.ConnectionEntry;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.ConnectionTableStats;
import io.edp.engine.slowpath.RuleCounters;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.VlanOp;
import io.edp.engine.telemetry.FlowMeter;
import io.edp.engine.telemetry.IpfixConfig;
import io.edp.engine.telemetry.IpfixExporter;
import io.edp.engine.telemetry.IpfixStats;
import io.edp.engine.time.Clock;
import io.edp.engine.time.SystemClock;
import io.edp.engine.trace.PacketTrace;
import io.edp.engine.trace.PacketTracer;
import io.edp.engine.tlb.ThreadLoadBalancer;
import io.edp.engine.worker.Generation;
import io.edp.engine.worker.RxQueue;
import io.edp.engine.worker.TxPort;
import io.edp.engine.worker.Worker;
import io.edp.engine.worker.WorkerHealth;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.lang.foreign.MemorySegment;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

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
 * <li>{@link #stats}, {@link #topFlows}, {@link #flushFlowCaches} serve the manager; {@link #trace} tells what
 *     the engine would do with a frame, stage by stage, without doing it.</li>
 * <li>The engine's Thread Load Balancer runs as {@link EngineConfig#tlb()} says (off unless configured); apply
 *     reconfigures it live, keeping its history, and {@link EngineStats#tlb()} shows its decisions.</li>
 * </ul>
 * Control methods are serialized; none of them runs on the packet path. The engine delegates: a
 * {@link GenerationCompiler} turns a configuration into the {@link Generation} the workers run, a {@link PortSet}
 * holds the ports' drivers and RX queues and places the queues on workers, a {@link WorkerGroup} waits for the
 * workers (grace periods, with deadlines) and reports their health, an {@link EngineStatsCollector} reads the
 * counters and flow caches.
 */
public final class Engine implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Engine.class.getName());

    private final MbufPool pool;
    private final ConnectionTable connections;
    private final PacketLog packetLog;
    private final Captures captures;
    private final Worker[] workers;
    private final WorkerGroup group;
    private final PortSet ports;
    private final GenerationCompiler compiler;
    private final EngineStatsCollector statsCollector;
    private final ThreadLoadBalancer balancer;
    private final Clock clock;
    /** IPFIX's exporting process: made when export is first turned on, kept (idle without collectors) after. */
    private volatile IpfixExporter exporter;
    /** Workers without threads, run by {@link #step()}: see {@link #startStepped}. */
    private final boolean stepped;
    private volatile Generation current;
    private volatile EngineConfig config;
    private boolean closed;

    private Engine(EngineConfig config, NicDrivers driverKinds, Clock clock, ConnectionTable carried,
            List<RuleStats> carriedRuleStats, boolean stepped) {
        this.stepped = stepped;
        this.config = config;
        this.clock = clock;
        this.pool = new MbufPool(config.mbufs(), config.mbufDescriptorBytes());
        this.connections = carried != null && carried.capacity() == config.conntrackCapacity() ? carried
                : new ConnectionTable(config.conntrackCapacity());
        this.compiler = new GenerationCompiler(connections);
        this.workers = new Worker[config.workerCount()];
        this.packetLog = new PacketLog(workers.length, clock, stepped);
        this.captures = new Captures(workers.length, clock, stepped);
        configurePacketLog(config);
        Map<Integer, long[]> carriedCounts = new TreeMap<>();
        for (RuleStats r : carriedRuleStats) {
            carriedCounts.put(r.ruleId(), new long[] {r.packets(), r.bytes(), r.connections()});
        }
        int id = 0;
        for (Map.Entry<Integer, Integer> node : new TreeMap<>(config.workersPerNumaNode()).entrySet()) {
            for (int i = 0; i < node.getValue(); i++, id++) {
                workers[id] = new Worker(id, node.getKey(), clock, pool, () -> current, packetLog.writer(id),
                        id == 0 ? carriedCounts : null, // the previous engine's counts go on from worker 0
                        captures);
            }
        }
        this.group = new WorkerGroup(workers, stepped);
        this.ports = new PortSet(pool, driverKinds, workers.length);
        this.statsCollector = new EngineStatsCollector(clock, workers, group, ports, connections);
        try {
            for (PortConfig p : config.ports()) {
                NicDriver driver = ports.open(p, GenerationCompiler.vnicAddresses(config));
                ports.add(p.id(), driver, ports.txPort(p.id(), driver));
            }
            current = compiler.compile(config, 1, ports.txPorts());
        } catch (RuntimeException e) {
            ports.close();
            pool.close();
            packetLog.close();
            throw e;
        }
        for (PortConfig p : config.ports()) {
            for (RxQueue queue : ports.placeQueues(p, workers)) {
                workers[queue.owner()].adopt(queue); // before the threads start
            }
        }
        if (!stepped) {
            for (Worker w : workers) {
                w.start();
            }
        }
        try {
            group.awaitAdoption(current);
        } catch (RuntimeException e) {
            boolean stopped = stopWorkers();
            ports.close();
            closePool(stopped);
            packetLog.close();
            throw e;
        }
        exportFlowsTo(config.ipfix());
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
        return new Engine(config, driverKinds, clock, null, List.of(), false);
    }

    /**
     * Starts an engine that takes over the connections of a previous one ({@link #connections()}, of an engine
     * closed first), so that rebuilding an engine (other workers, a port changed) cuts no connection. A table of
     * another capacity than {@code config.conntrackCapacity()} is not taken: the engine starts with an empty one.
     */
    public static Engine start(EngineConfig config, NicDrivers driverKinds, Clock clock, ConnectionTable carried) {
        return new Engine(config, driverKinds, clock, carried, List.of(), false);
    }

    /**
     * Starts an engine that replaces {@code previous} (closed first): it takes over its connections (as
     * {@link #start(EngineConfig, NicDrivers, Clock, ConnectionTable)}) and its firewall-rule counters, so that a
     * rebuild neither cuts a connection nor restarts a kept rule's counts.
     */
    public static Engine start(EngineConfig config, NicDrivers driverKinds, Clock clock, Engine previous) {
        return new Engine(config, driverKinds, clock, previous.connections(), previous.ruleStats(), false);
    }

    /**
     * Starts an engine for deterministic tests: its workers get no threads and its balancer never cycles by
     * itself. {@link #step()} runs one duty cycle of every worker on the caller's thread; starting, {@link #apply}
     * and {@link #sync} end their wait for the workers with one such step, and control requests run inline. With a
     * {@link io.edp.engine.time.ManualClock} nothing happens that the caller did not ask for, in an order it
     * chose, so a failing sequence of packets, clock moves and applies replays exactly. One thread drives it.
     */
    public static Engine startStepped(EngineConfig config, NicDrivers driverKinds, Clock clock) {
        return new Engine(config, driverKinds, clock, null, List.of(), true);
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
        int frames = group.step();
        captures.step();
        return frames;
    }

    /**
     * Makes {@code next} the running configuration: compiles it, publishes it as a new generation, and returns the
     * generation number once every worker has begun an iteration under it. All or nothing: a worker that is not running
     * refuses the apply before anything changes, and one that does not take the new generation within
     * {@link Worker#RESPONSE_DEADLINE} makes it fail with the previous configuration published again (under a new
     * number, since the workers that took the failed one cached entries under its number); either way the engine needs
     * rebuilding ({@link #health}). Everything changes live except the workers and the pool and conntrack sizes: ports
     * may come and go (a port's own settings are fixed but for its MTU; remove it and add it again to change them). A
     * removed port's queues are released before the publish and its driver closed after the grace period; an added
     * port's queues are placed after it. When the vNICs change, every running port's driver hears of it after the grace
     * period ({@link NicDriver#vnicsChanged}), so NetQueue filters follow them.
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
        List<Integer> removed = new ArrayList<>(ports.drivers().keySet());
        for (PortConfig p : next.ports()) {
            PortConfig running = config.ports().stream().filter(r -> r.id() == p.id()).findFirst().orElse(null);
            if (running == null) {
                added.add(p);
            } else if (!running.withMtu(p.mtu()).equals(p)) {
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
            Map<Integer, TxPort> txPorts = new TreeMap<>(ports.txPorts());
            removed.forEach(txPorts::remove);
            for (PortConfig p : added) {
                NicDriver driver = ports.open(p, GenerationCompiler.vnicAddresses(next));
                opened.put(p.id(), driver);
                txPorts.put(p.id(), ports.txPort(p.id(), driver));
            }
            g = compiler.compile(next, current.number() + 1, txPorts);
        } catch (RuntimeException e) {
            opened.values().forEach(NicDriver::close);
            throw e;
        }
        EngineConfig previous = config;
        List<RxQueue> released = new ArrayList<>();
        try {
            for (RxQueue q : ports.queues()) {
                if (removed.contains(q.port())) {
                    workers[q.owner()].execute(w -> w.release(q));
                    released.add(q);
                }
            }
            current = g;
            config = next;
            group.awaitAdoption(g);
            if (!next.packetLog().equals(previous.packetLog()) || !next.ports().equals(previous.ports())
                    || !next.vnics().equals(previous.vnics())) {
                // the log's outputs and interface names follow these parts alone: a change elsewhere, such as a
                // firewall rule, leaves them as they are (a failed output is retried with the log's next change)
                configurePacketLog(next);
            }
        } catch (RuntimeException e) {
            rollBack(previous, g, released, opened.values(), e);
            throw e;
        }
        if (!next.vnics().equals(previous.vnics())) {
            // NetQueue filters follow the vNICs on the running ports, whose other settings are fixed
            List<VnicAddress> vnics = GenerationCompiler.vnicAddresses(next);
            for (Map.Entry<Integer, NicDriver> port : ports.drivers().entrySet()) {
                if (!removed.contains(port.getKey())) {
                    port.getValue().vnicsChanged(vnics);
                }
            }
        }
        for (PortConfig p : added) {
            ports.add(p.id(), opened.get(p.id()), g.txPort(p.id()));
            for (RxQueue queue : ports.placeQueues(p, workers)) {
                workers[queue.owner()].execute(w -> w.adopt(queue));
            }
        }
        for (int port : removed) {
            ports.closePort(port);
        }
        exportFlowsTo(next.ipfix());
        balancer.reconfigure(next.tlb());
        return g.number();
    }

    /**
     * Points the IPFIX exporter at {@code ipfix}'s collectors, once every worker runs a generation with it: what
     * they handed over before is still sent under the previous settings.
     */
    private void exportFlowsTo(IpfixConfig ipfix) {
        if (exporter != null) {
            exporter.configure(ipfix);
        } else if (ipfix.enabled()) {
            FlowMeter[] meters = new FlowMeter[workers.length];
            for (int i = 0; i < meters.length; i++) {
                meters[i] = workers[i].flowMeter();
            }
            exporter = new IpfixExporter(ipfix, meters, clock);
        }
    }

    /** IPFIX export since the engine started; safe from any thread. */
    public IpfixStats ipfixStats() {
        IpfixExporter exporter = this.exporter;
        if (exporter == null) {
            return IpfixStats.NONE;
        }
        long flowsActive = 0;
        for (Worker w : workers) {
            flowsActive += w.flowMeter().flows() + (w.flowMeter().on()
                    ? w.flowCacheCounters().read(FlowCache.ENTRIES) : 0);
        }
        return exporter.stats(flowsActive);
    }

    /** The IPFIX exporter's thread id, -1 when export was never on (a benchmark charges its CPU time). */
    public long exporterThreadId() {
        IpfixExporter exporter = this.exporter;
        return exporter == null ? -1 : exporter.threadId();
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
            current = compiler.compile(previous, failed.number() + 1, ports.txPorts());
            config = previous;
            ports.retire(opened);
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

    /**
     * Returns once every worker has started a new iteration. Counters are plain per-worker longs; the workers'
     * iteration epochs are volatile, so a {@link #stats()} taken after this includes every packet handled
     * before it was called.
     *
     * @throws IllegalStateException when a worker is dead or begins no iteration within
     *                               {@link Worker#RESPONSE_DEADLINE}
     */
    public void sync() {
        group.sync();
    }

    /**
     * Each worker's health now: RUNNING, STALLED (no iteration for {@link Worker#STALL_THRESHOLD} since the engine
     * last looked) or DEAD (its thread ended), with the reason. Any thread; calling it now and then (the manager
     * does, every sweep) is what notices a stall.
     */
    public List<WorkerHealth> health() {
        return group.health();
    }

    /** The first worker that is not running, if any: an engine with one needs rebuilding. */
    public Optional<WorkerHealth> fault() {
        return group.fault();
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
     * says (see {@link io.edp.engine.fastpath.FlowCache#corrupt}); the live verifier reports each sampled hit as a
     * mismatch.
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
        RxQueue moving = ports.queue(port, rxQueue);
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

    /**
     * The busiest flows of every worker's cache as its last snapshot pass found them (entries of older generations
     * included): copied on the caller's thread, never waiting on a worker or on a reconfiguration.
     */
    public TopFlows topFlows() {
        return statsCollector.topFlows();
    }

    /**
     * What the engine would do with {@code frame} arriving on port {@code port} now, stage by stage (NSX
     * Traceflow, OVS {@code ofproto/trace}): computed on the worker that owns the RX queue the port's NIC steers
     * the frame to, between two of its bursts, against the running tables, and without side effects — no
     * connection created or advanced, no flow-cache entry installed or refreshed, no counter moved.
     *
     * @throws IllegalArgumentException when the engine has no port {@code port} or the frame does not fit a buffer
     * @throws IllegalStateException    when the owning worker is dead or does not run the trace within
     *                                  {@link Worker#RESPONSE_DEADLINE}
     */
    public synchronized PacketTrace trace(int port, byte[] frame) {
        ensureOpen();
        if (!ports.drivers().containsKey(port)) {
            throw new IllegalArgumentException("port: the engine has no port " + port);
        }
        if (frame.length > MbufPool.DATA_ROOM_BYTES - MbufPool.HEADROOM_BYTES) {
            throw new IllegalArgumentException("frame: " + frame.length + " bytes do not fit a buffer");
        }
        RxQueue queue = ports.queue(port, ports.driver(port).rxQueue(MemorySegment.ofArray(frame), 0, frame.length));
        Generation g = current;
        List<Route> routes = config.routes();
        AtomicReference<PacketTrace> trace = new AtomicReference<>();
        workers[queue.owner()].execute(w -> trace.set(PacketTracer.trace(w, g, routes, port, queue.queue(), frame,
                nowMillis())));
        return trace.get();
    }

    /**
     * Every rule's packets, bytes and connections summed over the workers, by rule id (ascending), for the rules
     * of the running generation; any thread, never waits on a worker. Counters belong to the rule's id: a push
     * that keeps the id (moved, edited or not) keeps its counts, one without it drops them (the rule starts from
     * zero if it comes back), and an engine started to replace this one takes them over.
     */
    public List<RuleStats> ruleStats() {
        Map<Integer, long[]> sums = new TreeMap<>();
        for (Worker w : workers) {
            w.ruleCounters().addTo(sums);
        }
        List<RuleStats> stats = new ArrayList<>(sums.size());
        sums.forEach((id, c) -> stats.add(new RuleStats(id, c[RuleCounters.PACKETS], c[RuleCounters.BYTES],
                c[RuleCounters.CONNECTIONS])));
        return List.copyOf(stats);
    }

    /** The live connections {@code filter} selects (as {@code conntrack -L}); any thread, never waits on a worker. */
    public List<ConnectionEntry> listConnections(ConnectionFilter filter) {
        return connections.list(filter, nowMillis());
    }

    /** The connection table's slots and live connections, per state; any thread. */
    public ConnectionTableStats connectionStats() {
        return connections.stats(nowMillis());
    }

    /**
     * Clears the connections {@code filter} selects (as {@code conntrack -D}) and returns how many: they leave the
     * table (each whose rule is logged with a {@code TERM … CLEARED} line in the packet log), then every worker drops,
     * between two bursts, the flow-cache entries that rested on them, so from the return on their flows' packets get
     * exactly what the slow path gives them now (a reply that passed only as part of a connection is dropped on both
     * paths; a packet the rules allow starts a new one).
     */
    public synchronized int clearConnections(ConnectionFilter filter) {
        ensureOpen();
        int[] slots = connections.remove(filter, nowMillis(), current.tables().rules(), packetLog.control());
        if (slots.length > 0) {
            for (Worker w : workers) {
                w.execute(worker -> worker.forgetConnections(slots));
            }
        }
        return slots.length;
    }

    /**
     * Starts a live capture of port {@code spec.port()} into a new pcap or pcapng file at {@code file} (a file there is
     * replaced): the workers copy the frames the port receives (before the pipeline) or transmits (after the
     * rewrite) that pass the filter into per-worker rings, never waiting (a full ring counts the frame dropped), and
     * the capture's drainer writes them. It ends at its limits, on {@link CaptureSession#stop()} or when the
     * engine closes.
     *
     * @throws IllegalArgumentException when the engine has no such port
     * @throws io.edp.engine.nic.NicSetupException when the file cannot be created
     */
    public synchronized CaptureSession capture(CaptureSpec spec, Path file) {
        ensureOpen();
        if (!ports.drivers().containsKey(spec.port())) {
            throw new IllegalArgumentException("port: the engine has no port " + spec.port());
        }
        String name = config.ports().stream().filter(p -> p.id() == spec.port()).map(PortConfig::name).findFirst()
                .orElse("port " + spec.port());
        return captures.start(spec, file, name);
    }

    private int nowMillis() {
        return (int) (clock.nanoTime() / 1_000_000);
    }

    /** A snapshot of every counter; safe to call from any thread at any time. */
    public EngineStats stats() {
        return statsCollector.stats(current, config, balancer.stats());
    }

    /** The driver of {@code port}, e.g. a loopback NIC to start traffic on. */
    public NicDriver driver(int port) {
        return ports.driver(port);
    }

    public synchronized EngineConfig config() {
        return config;
    }

    public int generation() {
        return current.number();
    }

    /** The firewall's packet log: its counters, and {@link PacketLog#flush} to deliver what is queued now. */
    public PacketLog packetLog() {
        return packetLog;
    }

    /** Points the packet log at the configuration's outputs, naming interfaces by the configuration's ports. */
    private void configurePacketLog(EngineConfig c) {
        String[] names = new String[PortConfig.MAX_PORT_ID + 1];
        boolean[] uplinks = new boolean[PortConfig.MAX_PORT_ID + 1];
        for (PortConfig p : c.ports()) {
            names[p.id()] = p.name();
            uplinks[p.id()] = true;
        }
        for (VnicConfig v : c.vnics()) {
            names[v.port()] = v.name();
            uplinks[v.port()] = false;
        }
        packetLog.configure(c.packetLog(), names, uplinks);
    }

        /** The connection table, to hand over to the engine that replaces this one. */
    public ConnectionTable connections() {
        return connections;
    }

    /** What worker {@code worker} sleeps on when idle: the sleep in progress and the sleeps cut short. */
    public Doorbell doorbell(int worker) {
        return workers[worker].doorbell();
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
            boolean stopped = stopWorkers();
            captures.close(); // after the workers: what they captured is written
            if (exporter != null) {
                exporter.close(); // after the workers: they hand over their last flows as they stop
            }
            ports.close();
            closePool(stopped);
            packetLog.close();
        }
    }

    /** Stops every worker; returns whether all did (a worker that did not is abandoned, still running). */
    private boolean stopWorkers() {
        boolean all = true;
        for (Worker w : workers) {
            if (!w.stop()) {
                all = false;
                LOG.log(System.Logger.Level.WARNING, "worker " + w.id() + " did not stop within "
                        + Worker.RESPONSE_DEADLINE.toSeconds() + " s; abandoned");
            }
        }
        return all;
    }

    /**
     * Frees the packet buffers unless a worker was abandoned: workers reach them unchecked (AddressSpace), so
     * freeing them under a running worker would crash the JVM; their memory is leaked instead.
     */
    private void closePool(boolean workersStopped) {
        if (workersStopped) {
            pool.close();
        } else {
            LOG.log(System.Logger.Level.WARNING, "packet buffers not freed: an abandoned worker may still use them");
        }
    }
}
