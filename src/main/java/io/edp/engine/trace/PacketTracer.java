package io.edp.engine.trace;

import io.edp.engine.fastpath.FlowCache;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.FrameParser;
import io.edp.engine.packet.FrameRewriter;
import io.edp.engine.slowpath.Action;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.ForwardingTables;
import io.edp.engine.slowpath.MacAddress;
import io.edp.engine.slowpath.Route;
import io.edp.engine.trace.PacketTrace.CacheState;
import io.edp.engine.trace.PacketTrace.ConnectionState;
import io.edp.engine.trace.PacketTrace.Firewall;
import io.edp.engine.trace.PacketTrace.FlowCacheLookup;
import io.edp.engine.trace.PacketTrace.Outcome;
import io.edp.engine.trace.PacketTrace.Routing;
import io.edp.engine.trace.PacketTrace.SwitchDecision;
import io.edp.engine.trace.PacketTrace.Switching;
import io.edp.engine.trace.PacketTrace.Verdict;
import io.edp.engine.worker.Generation;
import io.edp.engine.worker.Worker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.List;

/**
 * Computes a {@link PacketTrace} on the worker that owns the frame's RX queue, between two of its bursts (through
 * {@link Worker#execute}), so its flow cache, action table and fragment table hold still; the connection table is
 * shared and read under its stripe locks. The frame is parsed and rewritten in a one-buffer pool of its own. The
 * verdict is the engine's own: the slow path's side-effect-free probe ({@link io.edp.engine.slowpath.IoChain#probe})
 * or, on a flow-cache hit, the cached action, which is what the worker would apply; the stages around it are
 * read-only lookups in the same tables. Nothing is written: no connection, no cache entry, no counter.
 */
public final class PacketTracer {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int BYPASS_TCP_FLAGS = FlowKey.TCP_SYN | FlowKey.TCP_FIN | FlowKey.TCP_RST;

    private PacketTracer() {
    }

    /**
     * Traces {@code frame} arriving on {@code port} (queue {@code rxQueue}) through worker {@code w} running
     * {@code g}, whose routes are {@code routes} (the configured list the tables were compiled from).
     */
    public static PacketTrace trace(Worker w, Generation g, List<Route> routes, int port, int rxQueue, byte[] frame,
            int nowMillis) {
        try (MbufPool pool = new MbufPool(1, Mbuf.DESCRIPTOR_BYTES)) {
            Mbuf m = new Mbuf(pool).wrap(0);
            m.copyFrom(MemorySegment.ofArray(frame), 0, frame.length).port(port).rxQueue(rxQueue);
            int parsed = new FrameParser().parse(m);
            if (parsed != FrameParser.PARSED) {
                return new PacketTrace(port, rxQueue, w.id(), g.number(), null, null, null, null, null,
                        dropped(DropReason.of(parsed), 0, "drop(" + DropReason.of(parsed) + ")", false));
            }
            return new Trace(w, g, routes, m, nowMillis).run(rxQueue);
        }
    }

    private static Verdict dropped(DropReason reason, int ruleId, String action, boolean rejectReply) {
        return new Verdict(Outcome.DROPPED, -1, null, reason, ruleId, action, rejectReply);
    }

    /** One parsed packet's trace: its key words, and the slow path's decision. */
    private static final class Trace {

        private final Worker w;
        private final Generation g;
        private final ForwardingTables t;
        private final List<Route> routes;
        private final Mbuf m;
        private final int nowMillis;
        private final MemorySegment d;
        private final long key;
        private final long l4;
        private final long l2;
        private final int inPort;
        private final Action slowPath;
        private final DropReason slowDrop;

        Trace(Worker w, Generation g, List<Route> routes, Mbuf m, int nowMillis) {
            this.w = w;
            this.g = g;
            this.t = g.tables();
            this.routes = routes;
            this.m = m;
            this.nowMillis = nowMillis;
            this.d = m.descriptors();
            this.key = m.flowKeyAddress();
            this.l4 = word(FlowKey.L4);
            this.l2 = word(FlowKey.L2);
            this.inPort = FlowKey.inPort(l4);
            this.slowPath = w.ioChain().probe(m, t, nowMillis);
            this.slowDrop = slowPath.drops() ? DropReason.of(slowPath.dropReason()) : null;
        }

        PacketTrace run(int rxQueue) {
            String flowKey = FlowKey.describe(word(FlowKey.SRC_HI), word(FlowKey.SRC_LO), word(FlowKey.DST_HI),
                    word(FlowKey.DST_LO), l4, l2);
            Switching switching = t.hasPort(inPort) ? switching() : null;
            boolean routed = switching != null && switching.decision() == SwitchDecision.TO_ROUTER;
            boolean switched = switching != null && slowDrop != DropReason.NO_DESTINATION
                    && !(slowDrop == DropReason.HAIRPIN && !routed);
            Firewall firewall = switched && FlowKey.ipVersion(l4) != 0 ? firewall() : null;
            boolean allowed = switched && (firewall == null || firewall.allowed());
            Routing routing = routed && allowed ? routing() : null;
            FlowCacheLookup cache = flowCache();
            Action applied = cache.state() == CacheState.HIT
                    ? w.actions().get(w.flowCache().actionIndex(cacheSlot())) : slowPath;
            return new PacketTrace(inPort, rxQueue, w.id(), g.number(), flowKey, switching, firewall, routing, cache,
                    verdict(applied));
        }

        private Switching switching() {
            int outerTag = FlowKey.outerTag(l2);
            int segment = t.isUplink(inPort) ? outerTag & 0xFFF : t.accessVlan(inPort);
            long dstMac = FlowKey.dstMac(l2);
            String mac = MacAddress.format(dstMac);
            if (dstMac == t.routerMac()) {
                return new Switching(segment, mac, SwitchDecision.TO_ROUTER, -1);
            }
            if ((dstMac & FlowKey.GROUP_MAC) != 0) {
                return new Switching(segment, mac, SwitchDecision.FLOOD, -1);
            }
            int known = t.switching().lookup(segment, dstMac);
            if (known >= 0) {
                return new Switching(segment, mac, SwitchDecision.KNOWN_MAC, known);
            }
            return t.isUplink(inPort) || t.defaultUplink() < 0
                    ? new Switching(segment, mac, SwitchDecision.UNKNOWN_MAC, -1)
                    : new Switching(segment, mac, SwitchDecision.DEFAULT_UPLINK, t.defaultUplink());
        }

        private Firewall firewall() {
            boolean allowed = slowDrop != DropReason.FIREWALL_DROP && slowDrop != DropReason.FIREWALL_REJECT
                    && slowDrop != DropReason.FRAGMENT_WITHOUT_FIRST && slowDrop != DropReason.CONNTRACK_FULL;
            if ((FlowKey.flags(d, key) & FlowKey.FLAG_LATER_FRAGMENT) != 0) {
                return new Firewall(ConnectionState.NEW, true, slowPath.ruleId(), allowed);
            }
            ConnectionTable ct = t.connections();
            long found = ct.peek(word(FlowKey.SRC_HI), word(FlowKey.SRC_LO), word(FlowKey.DST_HI),
                    word(FlowKey.DST_LO), l4, FlowKey.tcpFlags(d, key), nowMillis, t.rules(), t.policyVersion());
            ConnectionState state = found == ConnectionTable.NOT_FOUND ? ConnectionState.NEW
                    : ConnectionState.of(ct.state((int) found));
            return new Firewall(state, false, slowPath.ruleId(), allowed);
        }

        private Routing routing() {
            int route = t.route(FlowKey.ipVersion(l4), word(FlowKey.DST_HI), word(FlowKey.DST_LO));
            if (route < 0) {
                return new Routing(null, -1, null, 0);
            }
            return new Routing(routes.get(route), t.routePort(route), MacAddress.format(t.routeNextHop(route)),
                    t.routeVlan(route));
        }

        /** The cache's view of the key, as {@code FastPath.lookup} would find it, without counting. */
        private FlowCacheLookup flowCache() {
            FlowCache cache = w.flowCache();
            if (!g.fastPath() || cache == null) {
                return new FlowCacheLookup(CacheState.DISABLED, -1, 0, null, false);
            }
            if ((FlowKey.flags(d, key) & FlowKey.FLAG_SLOW_PATH_ONLY) != 0
                    || (FlowKey.tcpFlags(d, key) & BYPASS_TCP_FLAGS) != 0 || t.isSlowPathOnly(inPort)) {
                return new FlowCacheLookup(CacheState.BYPASSED, -1, 0, null, false);
            }
            int slot = cacheSlot();
            boolean installs = slowPath.cacheable();
            if (slot < 0) {
                return new FlowCacheLookup(CacheState.MISS, -1, 0, null, installs);
            }
            long expiresIn = cache.expiryMillis(slot) - nowMillis;
            if (!cache.current(slot, g.number(), nowMillis)) {
                return new FlowCacheLookup(CacheState.STALE, cache.generation(slot), expiresIn, null, installs);
            }
            String cached = w.actions().get(cache.actionIndex(slot)).toString();
            return new FlowCacheLookup(CacheState.HIT, cache.generation(slot), expiresIn, cached, false);
        }

        private int cacheSlot() {
            return w.flowCache().find(d, key, m.flowHash());
        }

        /**
         * The egress port's MTU check, then rewrites the frame (in the trace's own buffer) as the worker would, then
         * transmit's own check.
         */
        private Verdict verdict(Action applied) {
            if (applied.outPort() == Action.FLOOD || applied.outPort() == Action.LOCAL) {
                return new Verdict(applied.outPort() == Action.FLOOD ? Outcome.FLOODED : Outcome.ANSWERED, -1, null,
                        null, applied.ruleId(), applied.toString(), false);
            }
            if (FrameRewriter.exceedsMtu(m, m.dataLength(), applied, t)) {
                return dropped(DropReason.MTU_EXCEEDED, applied.ruleId(), applied.toString(), false);
            }
            int rewritten = FrameRewriter.apply(m, applied);
            if (rewritten != FrameRewriter.FORWARD) {
                DropReason reason = DropReason.of(rewritten);
                return dropped(reason, applied.ruleId(), applied.toString(), reason == DropReason.FIREWALL_REJECT);
            }
            if (g.txPort(applied.outPort()) == null) {
                return dropped(DropReason.PORT_DOWN, applied.ruleId(), applied.toString(), false);
            }
            byte[] out = m.data().asSlice(m.dataAddress(), m.dataLength()).toArray(ValueLayout.JAVA_BYTE);
            return new Verdict(Outcome.FORWARDED, applied.outPort(), HexFormat.of().formatHex(out), null,
                    applied.ruleId(), applied.toString(), false);
        }

        private long word(int offset) {
            return d.get(LONG, key + offset);
        }
    }
}
