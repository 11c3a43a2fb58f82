package io.edp.engine.nic.afpacket;

import io.edp.engine.nic.NicSetupException;

/**
 * A kernel refusal while setting up or tearing down a packet socket. The message names the interface, the
 * operation and the errno with its name, e.g. {@code af_packet veth9: if_nametoindex failed: ENODEV (no such
 * interface)}, so that a command line can print it as one line.
 */
public final class AfPacketException extends NicSetupException {

    private final String interfaceName;
    private final int errno;

    AfPacketException(String interfaceName, String operation, int errno) {
        super("af_packet " + interfaceName + ": " + operation + " failed: " + Errno.describe(errno));
        this.interfaceName = interfaceName;
        this.errno = errno;
    }

    AfPacketException(String interfaceName, String problem) {
        super("af_packet " + interfaceName + ": " + problem);
        this.interfaceName = interfaceName;
        this.errno = 0;
    }

    public String interfaceName() {
        return interfaceName;
    }

    /** The kernel's errno, or 0 when the problem was found before asking the kernel. */
    public int errno() {
        return errno;
    }
}
