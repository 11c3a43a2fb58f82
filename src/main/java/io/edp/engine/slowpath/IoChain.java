package io.edp.engine.slowpath;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.PktHandle;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.NetworkOrder;
import io.edp.engine.packetlog.PacketLogWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The slow path: the stages a parsed packet meets when the flow cache cannot serve it — switching (MAC + VLAN →
 * port), distributed firewall with connection tracking, routing (LPM, MAC rewrite, TTL) — ending in an interned
 * {@link Action}. LEGACY runs it for every packet, EDP for misses; the code is the same. One instance per worker
 * (it owns the worker's {@link ActionTable} and {@link FragmentTable}); nothing here allocates unless a
 * never-seen action is interned.
 * <p>{@link #agrees} runs the same stages as a probe for the live verifier: without side effects (no connection
 * created, refreshed or advanced, no fragment recorded, no action interned, nothing written to the mbuf), the
 * decision is kept in this chain's {@code probed*} fields and compared field by field with a cached action.
 */
public final class IoChain {

    /** Per-stage verdicts in a LEGACY {@link PktHandle}'s IOChain scratch line, as the legacy stack records them. */
    private static final int STAGE_SWITCHING = 0;
    private static final int STAGE_FIREWALL = 4;
    private static final int STAGE_ROUTING = 8;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private static final int ARP_REQUEST = 1;
    private static final int NEIGHBOR_SOLICITATION = 135;
    /** ICMPv6 header, reserved word and target address. */
    private static final int NEIGHBOR_SOLICITATION_BYTES = 24;

    /** {@link #evaluate} result when probing: the decision is in the {@code probed*} fields. */
    private static final int PROBED = -2;

    private final ActionTable actions;
    /** The worker's packet log: the lines of logged rules' first packets, drops and connection ends. */
    private final PacketLogWriter log;
    /** The worker's rule counters: the connections each rule starts are counted here. */
    private final RuleCounters ruleCounters;
    private final FragmentTable fragments = new FragmentTable();
    // the last probe's decision, the fields of an Action
    private int probedOutPort;
    private VlanOp probedVlanOp = VlanOp.NONE;
    private int probedVlan;
    private boolean probedRouted;
    private long probedSrcMac;
    private long probedDstMac;
    private int probedDropReason;
    private int probedRuleId;

    public IoChain(ActionTable actions, PacketLogWriter log, RuleCounters ruleCounters) {
        this.actions = actions;
        this.log = log;
        this.ruleCounters = ruleCounters;
    }

    public ActionTable actions() {
        return actions;
    }

    /**
     * Runs the stages for the parsed packet {@code m}; returns its action's index, -1 if none can be interned.
     * The reference of the connection that let it through goes into the mbuf ({@link Mbuf#connection()}).
     */
    public int process(Mbuf m, ForwardingTables t, int nowMillis) {
        return evaluate(m, t, nowMillis, false);
    }

    /**
     * Whether the slow path, run now without side effects, would take {@code cached} for the parsed packet
     * {@code m}: same verdict (and drop reason), output port, VLAN operation, MAC rewrite, TTL decrement and rule.
     * The connection lookup is read-only ({@link ConnectionTable#peek}); a packet the rules allow is taken as
     * starting its connection (the insert that could fail on a full table is not tried). {@link #probed()} gives
     * the decision when it disagrees.
     */
    public boolean agrees(Mbuf m, ForwardingTables t, int nowMillis, Action cached) {
        evaluate(m, t, nowMillis, true);
        return cached.sameAs(probedOutPort, probedVlanOp, probedVlan, probedRouted, probedSrcMac, probedDstMac,
                probedRouted, probedDropReason, probedRuleId);
    }

    /**
     * The decision the slow path would take for the parsed packet {@code m} now, without side effects (see
     * {@link #agrees}); allocates: for a packet trace.
     */
    public Action probe(Mbuf m, ForwardingTables t, int nowMillis) {
        evaluate(m, t, nowMillis, true);
        return probed();
    }

    /** The last probe's decision as an action (allocates: for reporting a disagreement). */
    public Action probed() {
        return new Action(probedOutPort, probedVlanOp, probedVlan, probedRouted, probedSrcMac, probedDstMac,
                probedRouted, probedDropReason, probedRuleId);
    }

    private int evaluate(Mbuf m, ForwardingTables t, int nowMillis, boolean probe) {
        MemorySegment d = m.descriptors();
        long key = m.flowKeyAddress();
        long srcHi = d.get(LONG, key + FlowKey.SRC_HI);
        long srcLo = d.get(LONG, key + FlowKey.SRC_LO);
        long dstHi = d.get(LONG, key + FlowKey.DST_HI);
        long dstLo = d.get(LONG, key + FlowKey.DST_LO);
        long l4 = d.get(LONG, key + FlowKey.L4);
        long l2 = d.get(LONG, key + FlowKey.L2);
        int inPort = FlowKey.inPort(l4);
        if (!probe) {
            m.connection(-1);
        }
        if (!t.hasPort(inPort)) {
            return drop(DropReason.PORT_DOWN, 0, probe);
        }
        boolean scratch = !probe && m.pool().descriptorBytes() == PktHandle.DESCRIPTOR_BYTES;

        // switching: the frame's segment is its tag on an uplink, the vNIC's VLAN on a VM port
        int outerTag = FlowKey.outerTag(l2);
        int segment = t.isUplink(inPort) ? outerTag & 0xFFF : t.accessVlan(inPort);
        long dstMac = FlowKey.dstMac(l2);
        boolean routed = dstMac == t.routerMac();
        int ipVersion = FlowKey.ipVersion(l4);
        if (forRouter(m, t, segment, routed, ipVersion, dstHi, dstLo, l4)) {
            return decide(Action.LOCAL, VlanOp.NONE, segment, false, 0, 0, -1, 0, probe);
        }
        // broadcast and multicast go to every port of the segment (the pipeline makes the copies)
        boolean flood = !routed && (dstMac & FlowKey.GROUP_MAC) != 0;
        int outPort = -1;
        if (!routed && !flood) {
            outPort = t.switching().lookup(segment, dstMac);
            if (outPort < 0 && !t.isUplink(inPort)) {
                outPort = t.defaultUplink();
            }
            if (outPort < 0) {
                return drop(DropReason.NO_DESTINATION, 0, probe);
            }
            if (outPort == inPort) {
                return drop(DropReason.HAIRPIN, 0, probe);
            }
        }
        record(scratch, d, m, STAGE_SWITCHING, outPort);

        // firewall: a later fragment takes its datagram's first fragment's decision; other packets pass as part of
        // a connection or meet the rules
        int ruleId = 0;
        if (ipVersion != 0) {
            int flags = FlowKey.flags(d, key);
            long decision;
            if ((flags & FlowKey.FLAG_LATER_FRAGMENT) != 0) {
                decision = fragments.decision(srcHi, srcLo, dstHi, dstLo,
                        FragmentTable.datagram(m.fragmentId(), FlowKey.proto(l4), ipVersion), nowMillis);
                if (decision == FragmentTable.MISSING) {
                    return drop(DropReason.FRAGMENT_WITHOUT_FIRST, 0, probe);
                }
            } else {
                decision = firewall(m, t, srcHi, srcLo, dstHi, dstLo, l4, FlowKey.tcpFlags(d, key), outPort,
                        nowMillis, probe, log, ruleCounters);
                if ((flags & FlowKey.FLAG_FRAGMENT) != 0 && !probe) {
                    fragments.record(srcHi, srcLo, dstHi, dstLo,
                            FragmentTable.datagram(m.fragmentId(), FlowKey.proto(l4), ipVersion), decision, nowMillis);
                }
            }
            ruleId = (int) decision;
            if ((decision >>> 32) != 0) {
                return drop(DropReason.of((int) (decision >>> 32) - 1), ruleId, probe);
            }
        }
        record(scratch, d, m, STAGE_FIREWALL, ruleId);
        if (flood) {
            return decide(Action.FLOOD, VlanOp.NONE, segment, false, 0, 0, -1, ruleId, probe);
        }

        // routing: frames to the router MAC leave towards the longest matching prefix's next hop
        long srcMac = 0;
        long nextHop = 0;
        int egressVlan = segment;
        if (routed) {
            int route = ipVersion == 0 ? -1 : t.route(ipVersion, dstHi, dstLo);
            if (route < 0) {
                return drop(DropReason.NO_ROUTE, ruleId, probe);
            }
            outPort = t.routePort(route);
            if (outPort == inPort && !t.isUplink(inPort)) {
                return drop(DropReason.HAIRPIN, ruleId, probe);
            }
            srcMac = t.routerMac();
            nextHop = t.routeNextHop(route);
            egressVlan = t.routeVlan(route);
        }
        record(scratch, d, m, STAGE_ROUTING, outPort);

        // action: VLAN tags exist on uplinks only; a routed frame leaves with the route's VLAN as its only tag,
        // a switched QinQ frame loses its outer (segment) tag at most
        if (!t.isUplink(outPort)) {
            egressVlan = 0;
        }
        VlanOp vlanOp;
        if (routed && FlowKey.innerTag(d, key) != 0) {
            vlanOp = egressVlan == 0 ? VlanOp.POP_BOTH : VlanOp.POP_SET;
        } else {
            vlanOp = switchedVlanOp(outerTag, egressVlan);
        }
        return decide(outPort, vlanOp, vlanOp.setsVid() ? egressVlan : 0, routed, srcMac, nextHop, -1, ruleId,
                probe);
    }

    /**
     * The VLAN operation that makes a frame arriving with {@code outerTag} (0: untagged) leave with outer VID
     * {@code egressVlan} (0: untagged); a QinQ frame's inner tag stays.
     */
    public static VlanOp switchedVlanOp(int outerTag, int egressVlan) {
        if (egressVlan == 0) {
            return outerTag != 0 ? VlanOp.POP : VlanOp.NONE;
        }
        if (outerTag == 0) {
            return VlanOp.PUSH;
        }
        return (outerTag & 0xFFF) == egressVlan ? VlanOp.NONE : VlanOp.SET;
    }

    /**
     * Whether the frame is for the router itself: an ARP request or a neighbor solicitation for the gateway
     * address of its segment (whatever its destination MAC: broadcast, solicited-node multicast, or the router's
     * MAC when a neighbor re-checks it), or an IP packet sent to the router's MAC for one of its addresses.
     */
    private static boolean forRouter(Mbuf m, ForwardingTables t, int segment, boolean routed, int ipVersion,
            long dstHi, long dstLo, long l4) {
        if (ipVersion == 0) {
            return FlowKey.proto(l4) == ARP_REQUEST && t.isGateway(segment, 4, dstHi, 0);
        }
        if (ipVersion == 6 && FlowKey.proto(l4) == FlowKey.PROTO_ICMPV6
                && FlowKey.srcPort(l4) == NEIGHBOR_SOLICITATION
                && m.dataLength() >= m.l4Offset() + NEIGHBOR_SOLICITATION_BYTES) {
            long target = m.dataAddress() + m.l4Offset() + 8;
            return t.isGateway(segment, 6, m.data().get(NetworkOrder.U64, target),
                    m.data().get(NetworkOrder.U64, target + 8));
        }
        return routed && t.isRouterAddress(ipVersion, dstHi, dstLo);
    }

    /**
     * The firewall's decision on an unfragmented packet or a first fragment: the deciding rule's id, plus
     * {@code (drop reason + 1) << 32} when it drops. A live connection lets the packet through (after a rule
     * change, once re-checked in its initiator's direction); else the rules decide in the packet's direction, and
     * a packet they allow starts a connection. A drop never removes a connection: a reply the rules would drop
     * still passes while its connection lives. A probe reads the connection table and changes nothing. A logged
     * rule's drop, and the start of a connection under one, write a line to {@code log} (never when probing).
     */
    private static long firewall(Mbuf m, ForwardingTables t, long srcHi, long srcLo, long dstHi, long dstLo, long l4,
            int tcpFlags, int outPort, int nowMillis, boolean probe, PacketLogWriter log, RuleCounters counters) {
        ConnectionTable ct = t.connections();
        RuleSet rules = t.rules();
        int length = m.dataLength();
        long found = probe
                ? ct.peek(srcHi, srcLo, dstHi, dstLo, l4, tcpFlags, nowMillis, rules, t.policyVersion())
                : ct.find(srcHi, srcLo, dstHi, dstLo, l4, tcpFlags, nowMillis, rules, t.policyVersion(), length,
                        log);
        if (found != ConnectionTable.NOT_FOUND) {
            if (!probe) {
                m.connection((int) found);
            }
            return found >>> 32;
        }
        int rule = rules.match(srcHi, srcLo, dstHi, dstLo, l4, outPort);
        int ruleId = rule < 0 ? 0 : rules.id(rule);
        Verdict verdict = rule < 0 ? Verdict.ALLOW : rules.verdict(rule);
        if (verdict != Verdict.ALLOW) {
            if (!probe && rules.logs(rule)) {
                log.opened(verdict == Verdict.DROP ? PacketLogWriter.DROP : PacketLogWriter.REJECT, ruleId, srcHi,
                        srcLo, dstHi, dstLo, l4, outPort, tcpFlags, length, nowMillis);
            }
            return dropDecision(verdict == Verdict.DROP ? DropReason.FIREWALL_DROP : DropReason.FIREWALL_REJECT,
                    ruleId);
        }
        if (probe) {
            return ruleId & 0xFFFF_FFFFL;
        }
        long connection = ct.insert(srcHi, srcLo, dstHi, dstLo, l4, tcpFlags, nowMillis, t.policyVersion(), ruleId,
                FlowKey.inPort(l4), outPort, length, rules, log);
        if (connection == ConnectionTable.FULL) {
            return dropDecision(DropReason.CONNTRACK_FULL, ruleId);
        }
        counters.connectionStarted((int) (connection >>> 32));
        if (rules.logsId((int) (connection >>> 32))) {
            log.opened(PacketLogWriter.PASS, (int) (connection >>> 32), srcHi, srcLo, dstHi, dstLo, l4, outPort,
                    tcpFlags, length, nowMillis);
        }
        m.connection((int) connection);
        return connection >>> 32;
    }

    private static long dropDecision(DropReason reason, int ruleId) {
        return ((long) (reason.ordinal() + 1) << 32) | (ruleId & 0xFFFF_FFFFL);
    }

    private int drop(DropReason reason, int ruleId, boolean probe) {
        return decide(-1, VlanOp.NONE, 0, false, 0, 0, reason.ordinal(), ruleId, probe);
    }

    /** Interns the decision (a routed frame gets its MACs rewritten and its TTL decremented), or keeps a probe's. */
    private int decide(int outPort, VlanOp vlanOp, int vlan, boolean routed, long srcMac, long dstMac,
            int dropReason, int ruleId, boolean probe) {
        if (!probe) {
            return actions.intern(outPort, vlanOp, vlan, routed, srcMac, dstMac, routed, dropReason, ruleId);
        }
        probedOutPort = outPort;
        probedVlanOp = vlanOp;
        probedVlan = vlan;
        probedRouted = routed;
        probedSrcMac = routed ? srcMac : 0;
        probedDstMac = routed ? dstMac : 0;
        probedDropReason = dropReason;
        probedRuleId = ruleId;
        return PROBED;
    }

    private static void record(boolean scratch, MemorySegment d, Mbuf m, int stage, int verdict) {
        if (scratch) {
            d.set(INT, m.flowKeyAddress() - Mbuf.FLOW_KEY_OFFSET + PktHandle.IOCHAIN_SCRATCH_OFFSET + stage, verdict);
        }
    }
}
