package io.edp.engine.slowpath;

import io.edp.engine.packet.DropReason;

/**
 * The decision of the IOChain for one flow, immutable and interned in an {@link ActionTable} so the flow cache
 * stores only its index. {@code dropReason} is -1 for a forwarding action. The conntrack id is not part of it
 * (that would make every connection's action distinct); the slow path reports it per packet instead.
 */
public record Action(int outPort, VlanOp vlanOp, int vlan, boolean rewriteMacs, long srcMac, long dstMac,
        boolean decrementTtl, int dropReason, int ruleId) {

    public boolean drops() {
        return dropReason >= 0;
    }

    /**
     * Whether the flow cache may keep this decision. Not a firewall drop: with no change of policy, a connection
     * opened later (by the other direction, or from another port) turns it into a pass, so it rests on the
     * absence of state that no entry can watch. Such packets run the IOChain each time, as in LEGACY.
     */
    public boolean cacheable() {
        return dropReason != DropReason.FIREWALL_DROP.ordinal() && dropReason != DropReason.FIREWALL_REJECT.ordinal()
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
        return "output(port " + outPort + (vlanOp == VlanOp.NONE ? "" : ", " + vlanOp + " " + vlan)
                + (rewriteMacs ? ", set_mac " + Long.toHexString(srcMac) + ">" + Long.toHexString(dstMac) : "")
                + (decrementTtl ? ", dec_ttl" : "") + (ruleId != 0 ? ", rule " + ruleId : "") + ")";
    }
}
