package io.edp.engine.mbuf;

import io.edp.engine.numa.AddressSpace;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Flyweight over one 128-byte packet descriptor of an {@link MbufPool}: {@link #wrap(int)} points it at a
 * buffer, getters and setters read the fields at their offsets. No Java object exists per packet.
 *
 * <p>Layout, two cache lines, as DPDK's {@code rte_mbuf_core.h}: the first line holds what RX, the fast path
 * and TX touch for every packet; the second holds what the parser writes and the slow path reads.
 * <pre>
 * line 0 (fast path)                           line 1 (parse output, slow path)
 *  off size field                               off size field
 *    0   2  dataOffset  frame start in room      64  64 flowKey (parser-owned, see packet/)
 *    2   2  port        ingress port
 *    4   4  dataLength  frame bytes
 *    8   4  rssHash     NIC hash of the 5-tuple
 *   12   2  rxQueue     queue it arrived on
 *   14   2  txQueue     queue it leaves on
 *   16   4  packetType  parse result / drop reason
 *   20   2  l3Offset    from frame start
 *   22   2  l4Offset    from frame start
 *   24   4  actionIndex decided action
 *   28   4  flowHash    hash of the flow key
 *   32   8  timestamp   rx time, ns
 *   40   8  connection  reference of the conntrack entry that let the packet through (slow path), -1 for none
 *   48   4  fragmentId  IPv4 identification / IPv6 fragment identification, when the key says fragment
 *   52   4  ipLength    IP packet bytes as its header says (IPv4 total length, IPv6 40 + payload), 0 for ARP
 *   56   8  reserved
 * </pre>
 */
public final class Mbuf {

    public static final int DESCRIPTOR_BYTES = 128;

    public static final int DATA_OFFSET_OFFSET = 0;
    public static final int PORT_OFFSET = 2;
    public static final int DATA_LENGTH_OFFSET = 4;
    public static final int RSS_HASH_OFFSET = 8;
    public static final int RX_QUEUE_OFFSET = 12;
    public static final int TX_QUEUE_OFFSET = 14;
    public static final int PACKET_TYPE_OFFSET = 16;
    public static final int L3_OFFSET_OFFSET = 20;
    public static final int L4_OFFSET_OFFSET = 22;
    public static final int ACTION_INDEX_OFFSET = 24;
    public static final int FLOW_HASH_OFFSET = 28;
    public static final int TIMESTAMP_OFFSET = 32;
    public static final int CONNECTION_OFFSET = 40;
    public static final int FRAGMENT_ID_OFFSET = 48;
    public static final int IP_LENGTH_OFFSET = 52;
    public static final int FLOW_KEY_OFFSET = 64;
    public static final int FLOW_KEY_BYTES = 64;

    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    /** Where descriptors and data rooms are read and written: a constant, so the JIT checks nothing per access. */
    private static final MemorySegment MEMORY = AddressSpace.WHOLE;

    private final MbufPool pool;
    /** Addresses of the wrapped buffer's descriptor and data room. */
    private long base;
    private long room;
    private int index = -1;

    public Mbuf(MbufPool pool) {
        this.pool = pool;
    }

    /** Clears the descriptor of a freshly allocated buffer: empty frame at the default headroom. */
    static void reset(MbufPool pool, int index) {
        writeLine0(pool.descriptorAddress(index), MbufPool.HEADROOM_BYTES, 0L);
    }

    /**
     * Writes the first line of the descriptor whole, as a NIC's receive does: a frame of {@code length} bytes at
     * the default headroom, arrived on {@code port}'s RX queue {@code rxQueue} with the NIC's hash, every other
     * field cleared. A driver that posts buffers as they are ({@link MbufCache#allocateRaw}) writes this on
     * arrival: 8 stores to the line instead of a reset's 9 and then 4 fields (docs/benchmarks.md).
     */
    public Mbuf received(int port, int rxQueue, int length, int rssHash) {
        // offsets 0, 2, 4 and 8, 12 of the layout above, as words of a little-endian machine (x86-64, AArch64)
        writeLine0(base, MbufPool.HEADROOM_BYTES | (port & 0xFFFFL) << 16 | (long) length << 32,
                (rssHash & 0xFFFF_FFFFL) | (rxQueue & 0xFFFFL) << 32);
        return this;
    }

    /** Line 0 of the descriptor at {@code at}: its first two words as given, the rest cleared. */
    private static void writeLine0(long at, long word0, long word1) {
        MEMORY.set(LONG, at, word0);
        MEMORY.set(LONG, at + 8, word1);
        for (int i = 16; i < FLOW_KEY_OFFSET; i += Long.BYTES) {
            MEMORY.set(LONG, at + i, 0L);
        }
    }

    public Mbuf wrap(int index) {
        this.index = index;
        this.base = pool.descriptorAddress(index);
        this.room = pool.dataRoomAddress(index);
        return this;
    }

    public int index() {
        return index;
    }

    public MbufPool pool() {
        return pool;
    }

    /** The segment to read and write the frame through; the frame starts at {@link #dataAddress()}. */
    public MemorySegment data() {
        return MEMORY;
    }

    /** Address of the first frame byte in {@link #data()}. */
    public long dataAddress() {
        return room + dataOffset();
    }

    /** Address of this buffer's flow key in {@link #descriptors()}. */
    public long flowKeyAddress() {
        return base + FLOW_KEY_OFFSET;
    }

    /** The segment to read and write descriptors through. */
    public MemorySegment descriptors() {
        return MEMORY;
    }

    public int dataOffset() {
        return MEMORY.get(SHORT, base + DATA_OFFSET_OFFSET);
    }

    public Mbuf dataOffset(int offset) {
        MEMORY.set(SHORT, base + DATA_OFFSET_OFFSET, (short) offset);
        return this;
    }

    public int dataLength() {
        return MEMORY.get(INT, base + DATA_LENGTH_OFFSET);
    }

    public Mbuf dataLength(int length) {
        MEMORY.set(INT, base + DATA_LENGTH_OFFSET, length);
        return this;
    }

    /**
     * The descriptor's first word in one read: the frame's start in its room in bits 0–15 ({@link #dataAddress(long)})
     * and its length in bits 32–63 ({@link #dataLength(long)}). Per-packet loops read both at once: each memory
     * access costs the JIT about 900 nodes of the budget after which it inlines nothing more (docs/engine.md).
     */
    public long firstWord() {
        return MEMORY.get(LONG, base);
    }

    /** The address of the frame's first byte, from the {@link #firstWord()} read before. */
    public long dataAddress(long firstWord) {
        return room + (short) firstWord;
    }

    /** The frame's length, from a {@link #firstWord()}. */
    public static int dataLength(long firstWord) {
        return (int) (firstWord >>> 32);
    }

    /** The ingress port, from a {@link #firstWord()}. */
    public static int port(long firstWord) {
        return (int) (firstWord >>> 16) & 0xFFFF;
    }

    /**
     * The frame's first byte moved by {@code bytes} (negative: a header was pushed in front, into the headroom;
     * positive: one was popped) while its end stayed: its start, length and L3 offset follow. {@code firstWord} is
     * the {@link #firstWord()} read before; the start stays within its 16 bits, so the arithmetic on the word
     * never carries into the port beside it.
     */
    public void frontMoved(long firstWord, int bytes) {
        MEMORY.set(LONG, base, firstWord + bytes - ((long) bytes << 32));
        MEMORY.set(SHORT, base + L3_OFFSET_OFFSET, (short) (MEMORY.get(SHORT, base + L3_OFFSET_OFFSET) - bytes));
    }

    /** Room left after the frame for it to grow (e.g. a pushed VLAN tag uses headroom instead). */
    public int tailroom() {
        return MbufPool.DATA_ROOM_BYTES - dataOffset() - dataLength();
    }

    public int port() {
        return Short.toUnsignedInt(MEMORY.get(SHORT, base + PORT_OFFSET));
    }

    public Mbuf port(int port) {
        MEMORY.set(SHORT, base + PORT_OFFSET, (short) port);
        return this;
    }

    public int rssHash() {
        return MEMORY.get(INT, base + RSS_HASH_OFFSET);
    }

    public Mbuf rssHash(int hash) {
        MEMORY.set(INT, base + RSS_HASH_OFFSET, hash);
        return this;
    }

    public int rxQueue() {
        return Short.toUnsignedInt(MEMORY.get(SHORT, base + RX_QUEUE_OFFSET));
    }

    public Mbuf rxQueue(int queue) {
        MEMORY.set(SHORT, base + RX_QUEUE_OFFSET, (short) queue);
        return this;
    }

    public int txQueue() {
        return Short.toUnsignedInt(MEMORY.get(SHORT, base + TX_QUEUE_OFFSET));
    }

    public Mbuf txQueue(int queue) {
        MEMORY.set(SHORT, base + TX_QUEUE_OFFSET, (short) queue);
        return this;
    }

    public int packetType() {
        return MEMORY.get(INT, base + PACKET_TYPE_OFFSET);
    }

    public Mbuf packetType(int type) {
        MEMORY.set(INT, base + PACKET_TYPE_OFFSET, type);
        return this;
    }

    public int l3Offset() {
        return Short.toUnsignedInt(MEMORY.get(SHORT, base + L3_OFFSET_OFFSET));
    }

    public Mbuf l3Offset(int offset) {
        MEMORY.set(SHORT, base + L3_OFFSET_OFFSET, (short) offset);
        return this;
    }

    /** Sets the L3 and the L4 offset in one store (the parser knows both once it reaches the transport header). */
    public Mbuf headerOffsets(int l3, int l4) {
        MEMORY.set(INT, base + L3_OFFSET_OFFSET, (l3 & 0xFFFF) | l4 << 16); // little-endian, as received() writes
        return this;
    }

    public int l4Offset() {
        return Short.toUnsignedInt(MEMORY.get(SHORT, base + L4_OFFSET_OFFSET));
    }

    public Mbuf l4Offset(int offset) {
        MEMORY.set(SHORT, base + L4_OFFSET_OFFSET, (short) offset);
        return this;
    }

    public int actionIndex() {
        return MEMORY.get(INT, base + ACTION_INDEX_OFFSET);
    }

    public Mbuf actionIndex(int action) {
        MEMORY.set(INT, base + ACTION_INDEX_OFFSET, action);
        return this;
    }

    public int flowHash() {
        return MEMORY.get(INT, base + FLOW_HASH_OFFSET);
    }

    public Mbuf flowHash(int hash) {
        MEMORY.set(INT, base + FLOW_HASH_OFFSET, hash);
        return this;
    }

    public long timestamp() {
        return MEMORY.get(LONG, base + TIMESTAMP_OFFSET);
    }

    public Mbuf timestamp(long nanos) {
        MEMORY.set(LONG, base + TIMESTAMP_OFFSET, nanos);
        return this;
    }

    public long connection() {
        return MEMORY.get(LONG, base + CONNECTION_OFFSET);
    }

    public Mbuf connection(long id) {
        MEMORY.set(LONG, base + CONNECTION_OFFSET, id);
        return this;
    }

    public int fragmentId() {
        return MEMORY.get(INT, base + FRAGMENT_ID_OFFSET);
    }

    public Mbuf fragmentId(int id) {
        MEMORY.set(INT, base + FRAGMENT_ID_OFFSET, id);
        return this;
    }

    public int ipLength() {
        return MEMORY.get(INT, base + IP_LENGTH_OFFSET);
    }

    public Mbuf ipLength(int length) {
        MEMORY.set(INT, base + IP_LENGTH_OFFSET, length);
        return this;
    }

    /** Copies a frame into this buffer at the default headroom. */
    public Mbuf copyFrom(MemorySegment source, long offset, int length) {
        if (length > MbufPool.DATA_ROOM_BYTES - MbufPool.HEADROOM_BYTES) {
            throw new IllegalArgumentException("frame of " + length + " bytes does not fit a data room");
        }
        dataOffset(MbufPool.HEADROOM_BYTES).dataLength(length);
        MemorySegment.copy(source, offset, MEMORY, room + MbufPool.HEADROOM_BYTES, length);
        return this;
    }
}
