package io.edp.engine.nic;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * What a NIC's hardware does before a frame reaches a queue: NetQueue filters (destination MAC + VLAN to a
 * VM's queue), a default queue, RSS over the 5-tuple. A loopback NIC asks its steering for each frame.
 */
public interface RxSteering {

    /** The RX queue for the frame {@code frame[offset, offset + length)}. */
    int rxQueue(MemorySegment frame, long offset, int length);

    /** The hash the NIC reports with the frame (RSS hash), or 0 when the steering computes none. */
    default int rxHash(MemorySegment frame, long offset, int length) {
        return 0;
    }

    /** The vNICs behind the NIC changed (see {@link NicDriver#vnicsChanged}); steering without filters ignores it. */
    default void vnicsChanged(List<VnicAddress> vnics) {
    }
}
