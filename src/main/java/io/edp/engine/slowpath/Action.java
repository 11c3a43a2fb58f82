package io.edp.engine.slowpath;

import io.edp.engine.packet.DropReason;

/**
 * The decision of the IOChain for one flow, immutable and interned in an {@link ActionTable}. {@code dropReason}
 * is -1 for a forwarding action. The conntrack id is not part of it (that would make every connection's action
 * distinct); the slow path reports it per packet instead.
 *
 * <p>What a packet's rewrite needs of it is also kept as three primitives, which the flow cache holds inline in
 * an entry (so a hit loads no object) and the slow path takes from the action, so both rewrite from the same
 * values: {@link #rewrite} (port, VLAN, drop and flags) and the MACs as the frame's first 12 bytes
 * ({@link #macsHi}, {@link #macsLo}).
 * <pre>
 *  rewrite bits  field
 *        32..63  outPort (signed)
 *        16..31  vlan
 *         8..15  dropReason + 1 (0: forwards)
 *         4..7   vlanOp ordinal
 *         1      rewriteMacs
 *         0      decrementTtl
 * </pre>
 */
public record Action(int outPort, VlanOp vlanOp, int vlan, boolean rewriteMacs, long srcMac, long dstMac,
        boolean decrementTtl, int dropReason, int ruleId) {

    /** {@code outPort} of a frame flooded to every port of its segment ({@code vlan}) but the one it came from. */
    public static final int FLOOD = -2;
    /** {@code outPort} of a frame for the router itself (ARP, neighbor solicitation, echo to a gateway address). */
    public static final int LOCAL = -3;

    private static final VlanOp[] VLAN_OPS = VlanOp.values();

    public boolean drops() {
        return dropReason >= 0;
    }

    /** Port, VLAN op and VID, drop reason and flags, packed as the class comment shows. */
    public long rewrite() {
        return ((long) outPort << 32) | ((long) (vlan & 0xFFFF) << 16) | ((long) ((dropReason + 1) & 0xFF) << 8)
                | (vlanOp.ordinal() << 4) | (rewriteMacs ? 2 : 0) | (decrementTtl ? 1 : 0);
    }

    /** The frame's bytes 0..7 once the MACs are rewritten: the destination MAC and the source MAC's top 16 bits. */
    public long macsHi() {
        return (dstMac << 16) | ((srcMac >>> 32) & 0xFFFF);
    }

    /** The frame's bytes 8..11 once the MACs are rewritten: the source MAC's low 32 bits. */
    public int macsLo() {
        return (int) srcMac;
    }

    public static int outPort(long rewrite) {
        return (int) (rewrite >> 32);
    }

    public static int vlan(long rewrite) {
        return (int) (rewrite >>> 16) & 0xFFFF;
    }

    /** The drop reason of a {@link #rewrite}, -1 when it forwards. */
    public static int dropReason(long rewrite) {
        return ((int) (rewrite >>> 8) & 0xFF) - 1;
    }

    public static VlanOp vlanOp(long rewrite) {
        return VLAN_OPS[(int) (rewrite >>> 4) & 0xF];
    }

    public static boolean rewritesMacs(long rewrite) {
        return (rewrite & 2) != 0;
    }

    public static boolean decrementsTtl(long rewrite) {
        return (rewrite & 1) != 0;
    }

    /**
     * Whether the flow cache may keep this decision. Not a firewall drop: with no change of policy, a connection
     * opened later (by the other direction, or from another port) turns it into a pass, so it rests on the
     * absence of state that no entry can watch. Such packets run the IOChain each time, as in LEGACY. Not a flood
     * or a frame for the router either: both are control traffic (ARP, neighbor discovery, ping) that the slow
     * path handles, and a flood would need the segment's port list in the entry.
     */
    public boolean cacheable() {
        return outPort != FLOOD && outPort != LOCAL
                && dropReason != DropReason.FIREWALL_DROP.ordinal()
                && dropReason != DropReason.FIREWALL_REJECT.ordinal()
                && dropReason != DropReason.CONNTRACK_FULL.ordinal();
    }

    boolean sameAs(int outPort, VlanOp vlanOp, int vlan, boolean rewriteMacs, long srcMac, long dstMac,
            boolean decrementTtl, int dropReason, int ruleId) {
        return this.outPort == outPort && this.vlanOp == vlanOp && this.vlan == vlan
                && this.rewriteMacs == rewriteMacs && this.srcMac == srcMac && this.dstMac == dstMac
                && this.decrementTtl == decrementTtl && this.dropReason == dropReason && this.ruleId == ruleId;
    }

    @Override
    public String toString() {
        if (drops()) {
            return "drop(" + DropReason.of(dropReason) + (ruleId != 0 ? ", rule " + ruleId : "") + ")";
        }
        if (outPort == FLOOD || outPort == LOCAL) {
            return (outPort == FLOOD ? "flood(vlan " : "local(vlan ") + vlan + (ruleId != 0 ? ", rule " + ruleId : "")
                    + ")";
        }
        return "output(port " + outPort + (vlanOp == VlanOp.NONE ? "" : ", " + vlanOp + " " + vlan)
                + (rewriteMacs ? ", set_mac " + Long.toHexString(srcMac) + ">" + Long.toHexString(dstMac) : "")
                + (decrementTtl ? ", dec_ttl" : "") + (ruleId != 0 ? ", rule " + ruleId : "") + ")";
    }
}
