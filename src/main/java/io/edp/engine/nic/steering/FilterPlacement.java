package io.edp.engine.nic.steering;

/** Where a vNIC's unicast traffic lands after asking the NIC for a NetQueue filter. */
public enum FilterPlacement {
    /** A filter steers the vNIC's frames to its own RX queue. */
    DEDICATED_QUEUE,
    /** A filter steers the vNIC's frames into the shared RSS pool, spread by the Toeplitz hash. */
    SHARED_RSS,
    /** The NIC's filter table is full: no filter was installed, the vNIC's frames arrive on the default queue. */
    DEFAULT_QUEUE
}
