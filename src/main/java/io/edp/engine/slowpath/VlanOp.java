package io.edp.engine.slowpath;

/** What egress does to the outer 802.1Q tag. */
public enum VlanOp {
    NONE, PUSH, POP, SET
}
