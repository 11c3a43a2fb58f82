package io.edp.engine.nic;

import io.edp.engine.mbuf.MbufPool;

/** Opens the driver of one port; frames it receives go into buffers of the engine's {@code pool}. */
@FunctionalInterface
public interface NicDriverFactory {

    /** Throws IllegalArgumentException naming the bad option when {@code port.driverOptions()} are wrong. */
    NicDriver open(PortConfig port, MbufPool pool);
}
