package io.edp.engine.numa;

import java.lang.foreign.MemorySegment;

/**
 * The process's whole address space as one segment, for the per-packet memory (the mbuf slab and the flow-cache
 * entries), which is read and written at absolute addresses through {@link #WHOLE}.
 *
 * <p>Why: an access through a segment held in a field pays, each time, for loading the segment's size, base and
 * session and checking bounds, read-only and liveness (the session's owner and state) — about ninety accesses
 * per packet. Through a {@code static final} segment the JIT folds all of that to nothing but the access: in the
 * interleaved A/B of docs/benchmarks.md it took a fifth off the worker's CPU per packet. The price is that those
 * accesses are no longer checked against their allocation: the owners compute every address from an index they
 * validate ({@code MbufPool}, {@code FlowCache}), the parser bounds every offset by the frame's length, and memory
 * is freed only once no worker can touch it (an engine keeps its slab when a worker does not stop).
 */
public final class AddressSpace {

    /** Addresses 0 to {@code Long.MAX_VALUE - 1}, never closed. */
    public static final MemorySegment WHOLE = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private AddressSpace() {
    }
}
