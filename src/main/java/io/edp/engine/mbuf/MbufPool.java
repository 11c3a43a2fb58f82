package io.edp.engine.mbuf;

import io.edp.engine.numa.AddressSpace;
import io.edp.engine.numa.HugePages;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A preallocated off-heap slab of packet descriptors and their data rooms, like DPDK's mempool.
 *
 * <p>A packet is an {@code int} index into the slab; {@link Mbuf} is the flyweight that reads and writes a
 * descriptor. Workers take and return buffers through their own {@link MbufCache}, so the shared free list
 * is only touched in bulk. The descriptor stride is {@link Mbuf#DESCRIPTOR_BYTES} (EDP) or
 * {@link PktHandle#DESCRIPTOR_BYTES} (LEGACY), so both layouts run the same work.
 */
public final class MbufPool implements AutoCloseable {

    /** Bytes of packet data each buffer can hold, headroom included. */
    public static final int DATA_ROOM_BYTES = 2048;
    /** Space kept in front of the frame so a VLAN tag can be pushed without moving the payload. */
    public static final int HEADROOM_BYTES = 128;
    /**
     * Data rooms lie this far apart: one cache line more than a room, an odd number of lines, so that the same
     * offset in consecutive rooms (every frame's first line, the line a VLAN push writes) falls into every set of
     * the caches in turn. At 2,048 bytes apart, all frames' first lines shared two of the 64 sets of a 48 KiB
     * L1 and 32 of an L2's 1,024, and a burst's frames evicted each other (DPDK pads its mempool objects for the
     * same reason).
     */
    public static final int ROOM_STRIDE_BYTES = DATA_ROOM_BYTES + 64;

    /** Owns the descriptors and data rooms until {@link #close}; code reaches them through AddressSpace.WHOLE. */
    private final Arena arena;
    private final long descriptorsAddress;
    private final long dataRoomsAddress;
    private final int capacity;
    private final int descriptorBytes;
    private final int[] freeStack;
    private int freeCount;

    public MbufPool(int capacity, int descriptorBytes) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        if (descriptorBytes != Mbuf.DESCRIPTOR_BYTES && descriptorBytes != PktHandle.DESCRIPTOR_BYTES) {
            throw new IllegalArgumentException("descriptor must be " + Mbuf.DESCRIPTOR_BYTES + " or "
                    + PktHandle.DESCRIPTOR_BYTES + " bytes: " + descriptorBytes);
        }
        this.capacity = capacity;
        this.descriptorBytes = descriptorBytes;
        this.arena = Arena.ofShared();
        this.descriptorsAddress = HugePages.allocate(arena, (long) capacity * descriptorBytes).address();
        this.dataRoomsAddress = HugePages.allocate(arena, (long) capacity * ROOM_STRIDE_BYTES).address();
        this.freeStack = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            freeStack[i] = capacity - 1 - i;
        }
        this.freeCount = capacity;
    }

    /** Memory a pool of {@code capacity} buffers holds: descriptors and data rooms off-heap, the free list on heap. */
    public static long bytes(int capacity, int descriptorBytes) {
        return (long) capacity * (descriptorBytes + ROOM_STRIDE_BYTES + Integer.BYTES);
    }

    public int capacity() {
        return capacity;
    }

    public int descriptorBytes() {
        return descriptorBytes;
    }

    /**
     * The segment to read and write descriptors through ({@link AddressSpace#WHOLE}); the descriptor of buffer
     * {@code index} starts at {@link #descriptorAddress descriptorAddress(index)}.
     */
    public MemorySegment descriptors() {
        return AddressSpace.WHOLE;
    }

    /** The segment to read and write data rooms through; a room starts at {@link #dataRoomAddress}. */
    public MemorySegment dataRooms() {
        return AddressSpace.WHOLE;
    }

    /** The address of the descriptor of buffer {@code index} (in [0, {@link #capacity()}), as every index here). */
    public long descriptorAddress(int index) {
        return descriptorsAddress + (long) index * descriptorBytes;
    }

    /** The address of the data room of buffer {@code index}. */
    public long dataRoomAddress(int index) {
        return dataRoomsAddress + (long) index * ROOM_STRIDE_BYTES;
    }

    /** Moves up to {@code max} free buffers into {@code into[from..]}; returns how many were moved. */
    public synchronized int takeBulk(int[] into, int from, int max) {
        int n = Math.min(max, freeCount);
        for (int i = 0; i < n; i++) {
            into[from + i] = freeStack[--freeCount];
        }
        return n;
    }

    /** Returns {@code count} buffers from {@code from[offset..]} to the shared free list. */
    public synchronized void returnBulk(int[] from, int offset, int count) {
        if (freeCount + count > capacity) {
            throw new IllegalStateException("more buffers returned than the pool holds");
        }
        System.arraycopy(from, offset, freeStack, freeCount, count);
        freeCount += count;
    }

    /** Free buffers in the shared list (not counting those parked in worker caches). */
    public synchronized int available() {
        return freeCount;
    }

    /** Frees the memory. Only once no thread may touch a buffer: an access afterwards would crash the JVM. */
    @Override
    public void close() {
        arena.close();
    }
}
