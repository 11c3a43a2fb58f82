package io.edp.engine.slowpath;

/**
 * What egress does to the frame's 802.1Q tags: keep them, push a tag, pop the outer tag, set the outer tag's
 * VID; for a QinQ frame that is routed, pop both tags, or pop the outer one and set the VID of the remaining one
 * (a route's VLAN is the whole tag stack the frame leaves with).
 */
public enum VlanOp {
    NONE, PUSH, POP, SET, POP_BOTH, POP_SET;

    /** Whether the frame leaves with a tag whose VID the action gives. */
    public boolean setsVid() {
        return this == PUSH || this == SET || this == POP_SET;
    }
}
