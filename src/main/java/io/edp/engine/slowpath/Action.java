package io.edp.engine.slowpath;

import io.edp.engine.packet.DropReason;

/**
 * The decision of the IOChain for one flow, immutable and interned in an {@link ActionTable} so the flow cache
 * stores only its index. {@code dropReason} is -1 for a forwarding action. The conntrack id is not part of it
 * (that would make every connection's action distinct); the slow path reports it per packet instead.
 */
public record Action(int outPort, VlanOp vlanOp, int vlan, boolean rewriteMacs, long srcMac, long dstMac,
        boolean decrementTtl, int dropReason, int ruleId) {

    /** {@code outPort} of a frame flooded to every port of its segment ({@code vlan}) but the one it came from. */
    public static final int FLOOD = -2;
    /** {@code outPort} of a frame for the router itself (ARP, neighbor solicitation, echo to a gateway address). */
    public static final int LOCAL = -3;

    public boolean drops() {
        return dropReason >= 0;
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
