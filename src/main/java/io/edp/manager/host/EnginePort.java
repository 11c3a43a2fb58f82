package io.edp.manager.host;

/**
 * A NIC's port in its host's engine: the id it gets when created, the lowest free on the host, and keeps for life, so
 * that adding or removing another NIC or VM never renumbers it (the engine takes such a change live).
 */
public final class EnginePort {

    public static final String DESCRIPTION = "Id of this NIC's port in the host's engine (0..1023): the lowest free "
            + "on the host when the NIC was created, kept for the NIC's life; read-only";

    public static final String VNIC_NAME_DESCRIPTION = "Name of this virtual NIC's port in the host's engine, "
            + "<vm>-eth<N>, as captures, traces and statistics name it: N is the lowest free in the VM when the NIC "
            + "was created, kept for the NIC's life; read-only";

    private EnginePort() {
    }

    /** The name of a VM's virtual NIC's port: {@code <vm>-eth<N>}, N fixed when the NIC was created. */
    public static String vnicName(String vm, int index) {
        return vm + "-eth" + index;
    }
}
