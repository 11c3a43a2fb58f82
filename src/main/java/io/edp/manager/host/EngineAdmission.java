package io.edp.manager.host;

import java.util.function.Supplier;

/**
 * Admits a write that may grow what an embedded engine reserves (a host, a NIC, a VM's NIC, EDP settings): the
 * change runs in the caller's transaction and is refused, rolled back, when the embedded engines' memory would no
 * longer fit. The inventory and the EDP settings declare what they need here; the realization, which sizes
 * engines from both, implements it, so neither depends on it.
 */
public interface EngineAdmission {

    /** Runs {@code change} and refuses it if the engines' memory would no longer fit. */
    <T> T admit(Supplier<T> change);
}
