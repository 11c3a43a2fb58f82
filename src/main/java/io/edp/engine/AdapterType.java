package io.edp.engine;

/** A vNIC's emulated adapter: only VMXNET3 ports get the fast path; E1000 always takes the IOChain. */
public enum AdapterType {
    VMXNET3, E1000
}
