package io.edp.engine.worker;

import io.edp.engine.capture.CaptureSession;
import io.edp.engine.capture.Captures;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.FrameParser;
import io.edp.engine.packet.FrameRewriter;
import io.edp.engine.reject.RejectReplies;
import io.edp.engine.reject.RouterReplies;
import io.edp.engine.slowpath.ForwardingTables;
import io.edp.engine.slowpath.Action;
import io.edp.engine.slowpath.ActionTable;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.RuleCounters;
import io.edp.engine.telemetry.FlowMeter;
import io.edp.engine.time.Clock;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One worker's packet pipeline, for one RX burst at a time, in the order a packet meets its stages:
 * <pre>
 *   {@link #poll rx} → {@link #touch} → {@link #parse} → {@link #warm} →
 *       per packet: {@link #lookUp}: {@link FastPath#lookup} ── miss → {@link MissPath#process} →
 *                     {@link FastPath#install} (IPFIX: a packet the cache did not count → {@link FlowMeter#count});
 *                     LEGACY: {@link #slowPath}
 *                   → {@link RuleCounters#count} → {@link #rewrite} (REJECT and TTL_EXCEEDED: an answer; a flood:
 *                     {@link Flood}; for the router: {@link RouterReplies}) → {@link Transmit#stage}
 *   → {@link Transmit#send tx}
 * </pre>
 * Live captures tap the burst twice: as received, before parsing, and per port as handed to transmit, after the
 * rewrite ({@link Captures}); the pipeline looks whether any capture runs once per burst.
 * Each stage runs over the whole burst before the next (as VPP and OVS do), so the memory misses of different
 * packets overlap. It owns the burst's buffers until they are freed or staged, and gives back what a burst still
 * held when a stage threw ({@link #recover}). Worker thread only; nothing here allocates.
 */
final class BurstPipeline {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private final Clock clock;
    private final MbufCache mbufs;
    private final Mbuf mbuf;
    private final FrameParser parser = new FrameParser();
    private final FastPath fastPath;
    private final MissPath missPath;
    private final ActionTable actions;
    private final RuleCounters ruleCounters;
    private final RejectReplies rejectReplies;
    private final RouterReplies routerReplies;
    private final Flood flood;
    private final Transmit transmit;
    private final FlowMeter meter;
    private final long[] workerCounters;
    private final long[] drops;
    private final int workerId;
    private final Captures captures;
    /** The running captures as this burst read them (null: none) and the burst's receive time. */
    private CaptureSession[] taps;
    private long burstNanos;
    /**
     * When the next burst starts, as far as its busy time goes: the duty cycle's start ({@link #cycleStarts}), then
     * the end of the cycle's last burst. One clock read a burst instead of two: a read cost 26–27 ns on the
     * benchmark's virtual machine (kvm-clock), 0.8 ns a packet of a full burst.
     */
    private long nextStartNanos;

    private final int[] burst = new int[NicDriver.MAX_BURST];
    private final int[] parsed = new int[NicDriver.MAX_BURST];
    /** Each frame's length as the touch stage read it, kept beside {@link #parsed} by the parse stage. */
    private final int[] lengths = new int[NicDriver.MAX_BURST];
    /** The warm stage's slot per parsed packet, where the lookup looks first (LEGACY: unused). */
    private final int[] likely = new int[NicDriver.MAX_BURST];
    /** Each parsed packet's flow hash and its key's L4 word, as the warm stage read them (LEGACY: unused). */
    private final int[] hashes = new int[NicDriver.MAX_BURST];
    private final long[] l4Words = new long[NicDriver.MAX_BURST];
    /** Buffers the burst still owns (neither freed nor staged): {@code held[heldFrom, heldCount)}. */
    private int[] held = burst;
    private int heldFrom;
    private int heldCount;
    /** Sum of touched words: keeps the loads of {@link #touch}, {@link #warm} and {@link #warmConnections} from being
     *  dropped. */
    private long warmed;
    /** Test seam ({@link Worker#injectFault}): thrown by the next burst after parsing. */
    private Error injectedFault;

    BurstPipeline(Clock clock, MbufCache mbufs, Mbuf mbuf, FastPath fastPath, MissPath missPath, ActionTable actions,
            RuleCounters ruleCounters, RejectReplies rejectReplies, RouterReplies routerReplies, Flood flood,
            Transmit transmit, FlowMeter meter, long[] workerCounters, long[] drops, int workerId, Captures captures) {
        this.routerReplies = routerReplies;
        this.flood = flood;
        this.workerId = workerId;
        this.captures = captures;
        this.meter = meter;
        this.clock = clock;
        this.mbufs = mbufs;
        this.mbuf = mbuf;
        this.fastPath = fastPath;
        this.missPath = missPath;
        this.actions = actions;
        this.ruleCounters = ruleCounters;
        this.rejectReplies = rejectReplies;
        this.transmit = transmit;
        this.workerCounters = workerCounters;
        this.drops = drops;
    }

    void injectFault(Error fault) {
        injectedFault = fault;
    }

    /** A duty cycle polls its queues from {@code nowNanos} on: the first burst's busy time starts there. */
    void cycleStarts(long nowNanos) {
        nextStartNanos = nowNanos;
    }

    /**
     * Receives a burst of up to {@link NicDriver#MAX_BURST} frames from {@code queue} and runs it through every
     * stage; counts RX packets, bytes and busy time for the queue and the worker. Returns the frames received. A
     * burst's busy time runs from the end of the cycle's previous burst (or the cycle's start), so it includes
     * the empty polls of other queues in between, tens of nanoseconds each.
     */
    int poll(RxQueue queue, Generation g, int nowMillis) {
        long start = nextStartNanos;
        int n = queue.driver().rxBurst(queue.queue(), mbufs, burst, NicDriver.MAX_BURST);
        if (n == 0) {
            return 0;
        }
        long bytes = 0;
        taps = captures.active();
        burstNanos = start;
        try {
            if (taps != null) {
                Captures.received(taps, workerId, queue.port(), burst, n, mbuf, start);
            }
            bytes = process(queue.port(), n, g, nowMillis);
        } catch (Throwable t) {
            recover();
            throw t; // counted and logged by the duty cycle
        } finally {
            ruleCounters.flush();
            long end = clock.nanoTime();
            nextStartNanos = end;
            long busy = end - start;
            long[] q = queue.counters().values();
            q[RxQueue.PACKETS] += n;
            q[RxQueue.BYTES] += bytes;
            q[RxQueue.BUSY_NANOS] += busy;
            workerCounters[Worker.RX_PACKETS] += n;
            workerCounters[Worker.RX_BYTES] += bytes;
            workerCounters[Worker.BUSY_NANOS] += busy;
        }
        return n;
    }

    /**
     * The stages over {@code burst[0, n)}, received on {@code port}; returns the bytes received. Per packet, the
     * lookup is a call into a compile unit of its own and everything after it is compiled here
     * ({@link CompileUnits}).
     */
    private long process(int port, int n, Generation g, int nowMillis) {
        long bytes = touch(n);
        int parsedCount = parse(n);
        if (injectedFault != null) {
            throwInjectedFault();
        }
        boolean fast = g.fastPath();
        if (fast) {
            fastPath.receiving(port, g);
            warm(parsedCount);
        } else {
            warmConnections(parsedCount, g.tables().connections());
        }
        for (int i = 0; i < parsedCount; i++) {
            heldFrom = i;
            int index = parsed[i];
            int length = lengths[i];
            Mbuf m = mbuf.wrap(index);
            int actionIndex = fast ? lookUp(m, length, likely[i], hashes[i], g, nowMillis) : slowPath(m, g, nowMillis);
            if (actionIndex < 0) {
                drops[DropReason.ACTION_TABLE_FULL.ordinal()]++;
                mbufs.free(index);
                continue;
            }
            ruleCounters.count(actionIndex, length); // here, after either path: a hit counts as a miss would
            rewrite(index, m, length, actions.get(actionIndex), g, nowMillis);
        }
        heldFrom = heldCount;
        transmit.send(g, taps, burstNanos);
        return bytes;
    }

    /** Touches every frame's first line, so the misses on buffers filled by another core overlap; returns bytes. */
    private long touch(int n) {
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            Mbuf m = mbuf.wrap(burst[i]);
            long firstWord = m.firstWord();
            warmed += m.data().get(ValueLayout.JAVA_LONG_UNALIGNED, m.dataAddress(firstWord));
            int length = Mbuf.dataLength(firstWord);
            lengths[i] = length;
            bytes += length;
        }
        return bytes;
    }

    /** Parses each frame's flow key into its mbuf; malformed frames are counted and freed. Returns those kept. */
    private int parse(int n) {
        held = burst;
        heldCount = n;
        int parsedCount = 0;
        for (int i = 0; i < n; i++) {
            heldFrom = i;
            int verdict = parser.parse(mbuf.wrap(burst[i]));
            if (verdict != FrameParser.PARSED) {
                drops[verdict]++;
                mbufs.free(burst[i]);
            } else {
                lengths[parsedCount] = lengths[i];
                parsed[parsedCount++] = burst[i];
            }
        }
        held = parsed;
        heldFrom = 0;
        heldCount = parsedCount;
        return parsedCount;
    }

    /**
     * Touches each packet's flow-cache entry now, so that the burst's misses run in parallel. Each kind of miss gets
     * a loop of nothing but its loads: a load that misses holds up the retirement of every instruction after it, so
     * a miss amid other work stalls the core once the reorder buffer has filled behind it, while the misses of a
     * loop of loads are all in flight at once (Java has no prefetch instruction). First every packet's flow hash
     * and IP version (from its key's L4 word), then the flow cache's loads ({@link FastPath#warm}): its primary
     * signature row (a 512 KiB array, which at 125,000 flows the entries' lines keep pushing out of L2), its likely
     * slot from the rows now at hand, its entry: one line for an IPv4 key, two for an IPv6 one. The lookup then
     * looks at each packet's slot first.
     */
    private void warm(int parsedCount) {
        for (int i = 0; i < parsedCount; i++) {
            Mbuf m = mbuf.wrap(parsed[i]);
            hashes[i] = m.flowHash();
            l4Words[i] = m.descriptors().get(LONG, m.flowKeyAddress() + FlowKey.L4);
        }
        warmed += fastPath.warm(hashes, l4Words, likely, parsedCount);
    }

    /** LEGACY: touches each packet's connection-table lines now, so the misses run in parallel. */
    private void warmConnections(int parsedCount, ConnectionTable connections) {
        for (int i = 0; i < parsedCount; i++) {
            Mbuf m = mbuf.wrap(parsed[i]);
            MemorySegment d = m.descriptors();
            long key = m.flowKeyAddress();
            warmed += connections.warm(d.get(LONG, key + FlowKey.SRC_HI), d.get(LONG, key + FlowKey.SRC_LO),
                    d.get(LONG, key + FlowKey.DST_HI), d.get(LONG, key + FlowKey.DST_LO),
                    d.get(LONG, key + FlowKey.L4));
        }
    }

    /**
     * The action for the packet {@code m} wraps, from the fast path, which looks at the warm stage's slot first, or on
     * a miss from the miss path, cached for the flow's next packets; -1 when the action table is full. A compile unit
     * of its own ({@link CompileUnits}): the flow cache's lookup is most of the hit path's memory accesses.
     */
    private int lookUp(Mbuf m, int length, int likelySlot, int hash, Generation g, int nowMillis) {
        int actionIndex = fastPath.lookup(m, hash, length, g, nowMillis, likelySlot);
        if (actionIndex == FastPath.MISS) {
            actionIndex = missPath.process(m, g, nowMillis);
            if (!fastPath.install(m, length, g, nowMillis, actionIndex) && meter.on()) {
                meter(m, actionIndex, nowMillis);
            }
        }
        return actionIndex;
    }

    /** LEGACY: the action for the packet {@code m} wraps, from the miss path; -1 when the action table is full. */
    private int slowPath(Mbuf m, Generation g, int nowMillis) {
        int actionIndex = missPath.process(m, g, nowMillis);
        if (meter.on()) {
            meter(m, actionIndex, nowMillis);
        }
        return actionIndex;
    }

    /** Counts a packet the flow cache did not in the worker's IPFIX flow table (every packet, in LEGACY). */
    private void meter(Mbuf m, int actionIndex, int nowMillis) {
        if (meter.sampled()) {
            Action action = actionIndex >= 0 ? actions.get(actionIndex) : null;
            // a flood or a frame for the router has no one egress port
            meter.count(m, action == null ? 0 : action.ruleId(), action == null ? -1 : Math.max(-1, action.outPort()),
                    nowMillis);
        }
    }

    /**
     * Applies the action to the frame (TTL, MACs, VLAN) and stages it for its port, floods it, answers it (a frame
     * for the router), or drops it (with an answer for REJECT and an ICMP error for an expired TTL).
     */
    private void rewrite(int index, Mbuf m, int length, Action action, Generation g, int nowMillis) {
        if (action.outPort() == Action.FLOOD) {
            flood.flood(index, m, action.vlan(), g, taps, burstNanos, nowMillis);
            return;
        }
        if (action.outPort() == Action.LOCAL) {
            drops[DropReason.TO_ROUTER.ordinal()]++;
            stageReply(routerReplies.answer(m, g.tables().routerMac(), mbufs, nowMillis), m);
            mbufs.free(index);
            return;
        }
        if (FrameRewriter.exceedsMtu(m, length, action, g.tables())) {
            tooBig(m, action, g.tables(), nowMillis);
            mbufs.free(index);
            return;
        }
        int verdict = FrameRewriter.apply(m, action);
        if (verdict == FrameRewriter.FORWARD) {
            transmit.stage(index, action.outPort());
            return;
        }
        drops[verdict]++;
        if (verdict == DropReason.FIREWALL_REJECT.ordinal()) {
            stageReply(rejectReplies.reply(m, mbufs, nowMillis), m);
        } else if (verdict == DropReason.TTL_EXCEEDED.ordinal()) {
            routerError(RouterReplies.TIME_EXCEEDED_ERROR, m, 0, g.tables(), nowMillis);
        }
        mbufs.free(index);
    }

    /**
     * A packet over its egress port's MTU is dropped; a routed one is answered with fragmentation needed (IPv4 with
     * don't fragment: no fragmenting here) or packet too big, as a router does; a switch has no address to answer
     * from.
     */
    private void tooBig(Mbuf m, Action action, ForwardingTables t, int nowMillis) {
        drops[DropReason.MTU_EXCEEDED.ordinal()]++;
        if (action.decrementTtl()) {
            routerError(RouterReplies.TOO_BIG_ERROR, m, t.mtu(action.outPort()), t, nowMillis);
        }
    }

    /** An ICMP error from the gateway address of the packet's segment. */
    private void routerError(int error, Mbuf m, int mtu, ForwardingTables t, int nowMillis) {
        int in = m.port();
        int segment = t.isUplink(in) ? FlowKey.outerTag(m.descriptors().get(ValueLayout.JAVA_LONG_UNALIGNED,
                m.flowKeyAddress() + FlowKey.L2)) & 0xFFF : t.accessVlan(in);
        boolean v4 = FlowKey.ipVersion(m.descriptors().get(ValueLayout.JAVA_LONG_UNALIGNED,
                m.flowKeyAddress() + FlowKey.L4)) == 4;
        stageReply(routerReplies.error(error, m, mtu, v4 ? t.gateway4(segment) : t.gateway6Hi(segment),
                v4 ? 0 : t.gateway6Lo(segment), mbufs, nowMillis), m);
    }

    /** A generated answer ({@code reply} &ge; 0) leaves out of the ingress port of {@code m}, in its place. */
    private void stageReply(int reply, Mbuf m) {
        if (reply >= 0) {
            transmit.stage(reply, m.port());
        }
    }

    private void throwInjectedFault() {
        Error fault = injectedFault;
        injectedFault = null;
        throw fault;
    }

    /** After an unexpected Throwable: drop what the burst still held, so no buffer leaks. */
    private void recover() {
        for (int i = heldFrom; i < heldCount; i++) {
            mbufs.free(held[i]);
            drops[DropReason.WORKER_EXCEPTION.ordinal()]++;
        }
        transmit.discard();
        heldFrom = heldCount;
    }
}
