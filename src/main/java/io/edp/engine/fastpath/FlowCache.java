package io.edp.engine.fastpath;

import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.ActionTable;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.RestingEntries;
import io.edp.engine.telemetry.FlowEndReason;
import io.edp.engine.telemetry.FlowRecords;
import io.edp.engine.numa.AddressSpace;
import io.edp.engine.numa.HugePages;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One worker's exact-match flow cache (the fast path): 4-way set-associative buckets with two choices per key (a
 * primary and an alternative bucket, as in DPDK's rte_hash), no locks, no objects per entry. Two choices keep a
 * nearly full cache from evicting: a key that finds both its buckets full has a resident entry moved to that
 * entry's other bucket (cuckoo displacement, found by a bounded breadth-first search), so a cache holds about
 * what it is sized for. Owned by exactly one worker thread; other threads only read the counters array it was
 * given.
 *
 * <p>Each entry is two adjacent 64-byte cache lines of {@code entries} (16 longs; off-heap, line-aligned, on
 * 2 MiB pages where the kernel has them: {@link HugePages}), beside a parallel {@code int}
 * signature per slot so a lookup touches the bucket's 16-byte signature row (two on a primary-bucket miss) and, on
 * a match, the entry. Line 0 is all that a hit of an IPv4 flow reads and writes: the key words an IPv4 key has
 * (its low address words are always 0, so they are not compared), what decides whether the entry is current, and
 * the counters a hit adds to. Line 1 holds an IPv6 key's low address words, which its lookup compares too, and
 * what only installs, exports and the sweep touch; and room for the action inline (a hit then reads no
 * {@code Action} object). One line a hit instead of two: at 125,000 flows every line is a miss the warm stage must
 * overlap (docs/benchmarks.md).
 * <pre>
 *  word bits   field
 *  line 0: decide and count
 *   0   64     srcHi     IPv6 source bits 127..64; IPv4 source in bits 63..32 ({@link FlowKey})
 *   1   64     dstHi     as srcHi, destination
 *   2   64     l4        ports, protocol, IP version, ingress port
 *   3   64     l2        destination MAC and outer VLAN tag
 *   4   32..63 expiry, milliseconds of the engine clock (wrap-safe int compare)
 *       16..31 action index into the worker's action table (which holds at most 65,536)
 *        0..15 generation (low 16 bits; workers flush when the high bits change)
 *   5   32..63 last hit, ms (also last seen, for telemetry)
 *          30  the entry is its connection direction's registered one ({@link ConnectionTable#rest})
 *        0..31 connection reference the verdict rests on (bit 30 aside), -1 for none
 *   6    8..63 packets  \ since install, revalidation or the last export
 *        0..7  OR of the TCP flags of those packets
 *   7   64     bytes    /
 *  line 1: IPv6's low address words, and what a hit does not touch
 *   8   64     srcLo     IPv6 source bits 63..0; 0 for IPv4
 *   9   64     dstLo     as srcLo, destination
 *  10   32..63 first seen, ms (of the first packet counted in words 6-7)
 *  11   32..63 rule id    \ IPFIX labels, from the action at install
 *       16..31 egress port + 1, 0 for none /
 *  12-15       reserved: the action inline (port and queue, VLAN op and VID, TTL/MAC flags, drop reason, rule id,
 *              source and destination MAC)
 * </pre>
 * The signature of a slot is the key's full 32-bit hash (0 = empty): the primary bucket is its low bits, the
 * alternative one its Fibonacci hash (the top bits of hash × 2^32/φ), which depends on every bit, so keys that
 * share a primary bucket scatter over the others; and an entry's other bucket follows from its signature alone,
 * which is what lets displacement move entries without rereading their keys.
 *
 * <p><b>Coherence with connection tracking.</b> An entry whose verdict rests on a connection keeps it alive: a hit
 * stamps word 5. The first entry of a connection direction registers with the connection table, which reads that
 * stamp when the connection's own times say it timed out ({@link #lastHit}); every other one has the caller fold
 * its stamp into the connection when it moved, at most once per millisecond ({@link #touch}). A registered entry
 * hands its last hit to the connection before it is removed or replaced, and tells where it moved. An entry idle
 * for {@link ConnectionTable#SHORTEST_TIMEOUT_MILLIS} or longer may rest on a connection that has since expired, so
 * it goes back to the slow path ({@link #STALE}), which decides as it would without the cache. So no entry
 * outlives the state its verdict depends on.
 *
 * <p>Staged expiry: an installed entry expires at now + U[min, max], drawn from a per-cache xorshift generator, so
 * flows installed together do not come back to the slow path together. Insertion takes, in order: a free slot of
 * either bucket; an expired entry of either (counted as an expiration); a free slot reached by displacement; and
 * only then evicts the entry nearest to its expiry among the eight (the one the sweep would retire next).
 *
 * <p><b>Flow export.</b> With IPFIX on ({@link #exportTo}), words 6, 7, 10 and 11 are the flow's record: an
 * entry's counters are handed to the exporter whenever they would otherwise be lost — expiry, eviction,
 * revalidation, forget, flush — and by the sweep at the idle and active timeouts, after which the entry counts
 * afresh. Moves (displacement) carry the counters along. So every packet counted here is exported exactly once.
 */
public final class FlowCache implements RestingEntries {

    public static final int MIN_CAPACITY = 4;
    /** 524,288: also what a connection's registered entry can name ({@link ConnectionTable#RESTING_SLOTS}). */
    public static final int MAX_CAPACITY = ConnectionTable.RESTING_SLOTS;
    public static final int DEFAULT_CAPACITY = 131_072;
    /** {@link #lookup} result: no entry for the key. */
    public static final int MISS = -1;
    /** {@link #lookup} result: an entry exists but is expired or from an older generation. */
    public static final int STALE = -2;

    public static final int HITS = 0;
    public static final int MISSES = 1;
    public static final int SLOW_PATH = 2;
    public static final int INSERTIONS = 3;
    public static final int INSERTION_FAILURES = 4;
    public static final int EVICTIONS = 5;
    public static final int EXPIRATIONS = 6;
    public static final int REVALIDATIONS = 7;
    public static final int ENTRIES = 8;
    public static final int COUNTER_COUNT = 9;

    private static final int WAYS = 4;
    /**
     * Buckets the displacement search may visit per insertion: every path of up to three moves (2 + 8 + 32
     * buckets) and part of the fourth level, which keeps a 90 %-full cache from evicting while bounding what an
     * insertion into a really full cache costs.
     */
    private static final int SEARCH_BUCKETS = 64;
    private static final int WORDS = 16;
    /** Words of a flow key ({@link FlowKey}: srcHi, srcLo, dstHi, dstLo, l4, l2). */
    static final int KEY_WORDS = 6;
    /** Entry words (the layout above): line 0 from 0, line 1 from 8. */
    private static final int SRC_HI_WORD = 0;
    private static final int DST_HI_WORD = 1;
    private static final int L4_WORD = 2;
    private static final int L2_WORD = 3;
    private static final int SRC_LO_WORD = 8;
    private static final int DST_LO_WORD = 9;
    /** Where an entry holds each word of its flow key, in the key's order. */
    private static final int[] KEY_WORD_AT = {SRC_HI_WORD, SRC_LO_WORD, DST_HI_WORD, DST_LO_WORD, L4_WORD, L2_WORD};
    private static final int META_WORD = 4;
    private static final int STAMP_WORD = 5;
    private static final int PACKETS_WORD = 6;
    private static final int BYTES_WORD = 7;
    private static final int SEEN_WORD = 10;
    private static final int LABELS_WORD = 11;
    /** The packets word counts above the TCP flags' byte. */
    private static final int FLAG_BITS = 8;
    /** {@link #install} connection reference of an entry that rests on no connection. */
    public static final int NO_CONNECTION = -1;
    /** The stamp word's mark of a registered entry, in its connection reference's half (references stay below). */
    private static final int RESTING = 1 << 30;
    /** Reads the stamp word of an entry from another thread (the connection table, {@link #lastHit}). */
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    /** Action indices the entry can hold. */
    public static final int MAX_ACTIONS = 1 << 16;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    /** Where the entries are read and written, at {@link #entriesAddress}: a constant, so no check per access. */
    private static final MemorySegment MEMORY = AddressSpace.WHOLE;

    private final int capacity;
    private final int bucketMask;
    private final int bucketShift;
    /** Held to keep the entries' memory (the automatic arena frees it once this is unreachable). */
    private final MemorySegment entries;
    private final long entriesAddress;
    /** An entry's key copied out, in {@link FlowKey}'s order, for the exporter and the top-flows pass. */
    private final long[] copied = new long[KEY_WORDS];
    /**
     * The meta and stamp words of the entry the last {@link #lookup} found current, for {@link #hitActionIndex}
     * and {@link #touchHit}: a hit reads them once (each read of an entry word costs the JIT's inlining budget).
     */
    private long hitMeta;
    private long hitStamp;
    private final int[] signatures;
    private final long[] counters;
    /** Where entries register with their connections ({@link ConnectionTable#rest}), and this cache's id there
     *  (0: not registered, after {@link #close} or when the table had no id left: every hit then touches). */
    private final ConnectionTable connections;
    private int restingId;
    /** Registered entries: {@link #flush} walks the cache to let go of their connections only when there are. */
    private int resting;
    /** The displacement search's queue: a bucket's first slot, the node it was reached from (-1 for the key's own
     *  buckets), and the slot there whose entry would move into it. Preallocated: insertion allocates nothing. */
    private final int[] searchBucket = new int[SEARCH_BUCKETS];
    private final int[] searchParent = new int[SEARCH_BUCKETS];
    private final int[] searchFrom = new int[SEARCH_BUCKETS];
    private final int minExpiryMillis;
    private final int expirySpreadMillis;
    private long random;
    private int sweepCursor;
    /**
     * No entry expires before this (ms, wrap-safe; meaningless while {@link #boundByNone}, when the cache is
     * empty): the bound of the new cache or of the last full sweep cycle, lowered by every install since. Until
     * then the sweep has nothing to retire and sleeps through its ticks, so an idle worker's cache costs it nothing.
     */
    private int earliestExpiry;
    private boolean boundByNone = true;
    /** The running sweep cycle: slots it has passed, and the least expiry of the entries it passed or that were
     *  installed or moved (possibly behind its cursor) since it began. */
    private int cycleSwept;
    private int cycleEarliest;
    private boolean cycleBounded;
    /** Changes to entries other than a hit's (installs, removals, exports, moves), for {@link #version}. */
    private long changes;
    /** Where counters go when they would be lost; null when IPFIX is off. */
    private FlowRecords export;
    private int activeTimeoutMillis;
    private int idleTimeoutMillis;

    public FlowCache(int capacity, long minExpiryMillis, long maxExpiryMillis, long seed, long[] counters,
            ConnectionTable connections) {
        if (capacity < MIN_CAPACITY || capacity > MAX_CAPACITY || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("flow cache capacity must be a power of two in [" + MIN_CAPACITY
                    + ", " + MAX_CAPACITY + "]: " + capacity);
        }
        if (minExpiryMillis <= 0 || maxExpiryMillis < minExpiryMillis || maxExpiryMillis > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("flow cache expiry window must satisfy 0 < min <= max: ["
                    + minExpiryMillis + ", " + maxExpiryMillis + "] ms");
        }
        this.capacity = capacity;
        this.bucketMask = capacity / WAYS - 1;
        this.bucketShift = 32 - Integer.numberOfTrailingZeros(capacity / WAYS);
        this.entries = HugePages.allocate(Arena.ofAuto(), (long) capacity * WORDS * Long.BYTES);
        this.entriesAddress = entries.address();
        this.signatures = new int[capacity];
        this.counters = counters;
        this.minExpiryMillis = (int) minExpiryMillis;
        this.expirySpreadMillis = (int) (maxExpiryMillis - minExpiryMillis) + 1;
        this.random = seed == 0 ? 0x2545F4914F6CDD1DL : seed;
        this.connections = connections;
        this.restingId = connections.register(this);
    }

    /**
     * The cache is dropped (replaced, or its worker ends): empties it, which hands every registered entry's last
     * hit to its connection, and ends its registration. Still usable after, with every hit touching.
     */
    public void close() {
        flush();
        if (restingId != 0) {
            connections.unregister(restingId);
            restingId = 0;
        }
    }

    @Override
    public long lastHit(int slot, int reference) {
        long word = (long) WORD.getAcquire(entries, ((long) slot * WORDS + STAMP_WORD) * Long.BYTES);
        return (int) word == (reference | RESTING) ? (int) (word >>> 32) : NONE;
    }

    /** Memory a cache of {@code capacity} entries holds: the entry lines (off-heap) and the signature per slot. */
    public static long bytes(int capacity) {
        return (long) capacity * (WORDS * Long.BYTES + Integer.BYTES);
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Finds the entry for the key at {@code keyBase} in {@code descriptors}: its slot when it is current
     * (same generation, not expired, not idle past what its connection may be), {@link #STALE} when it must be
     * revalidated, {@link #MISS} otherwise.
     */
    public int lookup(MemorySegment descriptors, long keyBase, int hash, int generation, int nowMillis) {
        return verdict(find(descriptors, keyBase, hash), generation, nowMillis);
    }

    /**
     * {@link #lookup}, looking first at {@code likely} (any slot below the capacity: where a burst's warm stage
     * found the key's signature, {@link #likelySlot}). That slot holds the key in nearly every hit, so the hit
     * compares one signature and one key instead of scanning up to eight signatures, whose data-dependent branches
     * cost more than the compares. If the cache changed since (an earlier packet of the burst installed an entry
     * and moved others) or the slot stood in for none, the slot's signature or key differs and the buckets are
     * searched as without it.
     */
    public int lookup(MemorySegment descriptors, long keyBase, int hash, int generation, int nowMillis, int likely) {
        boolean there = signatures[likely] == hash && matches(likely * WORDS, descriptors, keyBase);
        return verdict(there ? likely : find(descriptors, keyBase, hash), generation, nowMillis);
    }

    /** Counts and returns what {@link #lookup} found at {@code slot} (-1: no entry for the key). */
    private int verdict(int slot, int generation, int nowMillis) {
        if (slot < 0) {
            counters[MISSES]++;
            return MISS;
        }
        long meta = get(slot * WORDS + META_WORD);
        long lastHit = get(slot * WORDS + STAMP_WORD);
        if (!current(meta, lastHit, generation, nowMillis)) {
            counters[REVALIDATIONS]++;
            return STALE;
        }
        hitMeta = meta;
        hitStamp = lastHit;
        counters[HITS]++;
        return slot;
    }

    /**
     * Whether the entry at {@code slot} may serve a packet now: same generation, not expired, not idle past what
     * its connection may be. Reads only (a packet trace asks it too).
     */
    public boolean current(int slot, int generation, int nowMillis) {
        return current(get(slot * WORDS + META_WORD), get(slot * WORDS + STAMP_WORD), generation, nowMillis);
    }

    private static boolean current(long meta, long lastHit, int generation, int nowMillis) {
        return ((int) meta & 0xFFFF) == (generation & 0xFFFF) && (int) (meta >>> 32) - nowMillis > 0
                && ((int) lastHit == NO_CONNECTION
                        || nowMillis - (int) (lastHit >>> 32) < ConnectionTable.SHORTEST_TIMEOUT_MILLIS);
    }

    /** The generation (its low 16 bits) the entry at {@code slot} was installed or revalidated under. */
    public int generation(int slot) {
        return (int) get(slot * WORDS + META_WORD) & 0xFFFF;
    }

    /**
     * Where the key of {@code hash} most likely is, without deciding anything: the slot of either of its buckets
     * whose signature is the hash, or -1. Reads signature rows only. The alternative bucket counts: displacement
     * leaves about 3 in 10 entries of a 95 %-full cache there.
     */
    public int likelySlot(int hash) {
        int first = primary(hash);
        int ways = signedWays(first, hash);
        if (ways == 0) {
            first = secondary(hash);
            ways = signedWays(first, hash);
        }
        return ways == 0 ? -1 : first + 31 - Integer.numberOfLeadingZeros(ways);
    }

    /**
     * The flow cache's part of a burst's warm stage, for packets {@code [0, n)} with flow hashes {@code hashes} and key
     * L4 words {@code l4Words}: loads each primary signature row, then sets {@code likely} to each {@link #likelySlot}
     * from the rows now at hand (0 for none: slot 0 stands in, a line warm anyway after the first bursts; a packet of
     * the same flow hash as the one before it, as in a train of one flow's packets, takes that one's slot without
     * searching the rows again), then loads the entry lines a hit reads: line 0, and line 1 for an IPv6 key, whose
     * lookup compares its low address words there. Each is a loop of little but its loads, so that as many of the
     * burst's misses as the core can hold are in flight at once; here, in one method, the JIT keeps the rows and the
     * entries' address in registers (the same loops calling through the fast path per packet were 1–4 ns a packet
     * slower at 125,000 flows). The connection line a hit stores its time into is not loaded: a store that misses does
     * not stall the worker, and loading that line ahead made the stage slower (docs/benchmarks.md). Returns a sum of
     * what was loaded, for the caller to keep: loads whose values nothing uses may be dropped.
     */
    public long warm(int[] hashes, long[] l4Words, int[] likely, int n) {
        int[] rows = signatures;
        long loaded = 0;
        for (int i = 0; i < n; i++) {
            loaded += rows[primary(hashes[i])];
        }
        int previousHash = 0; // no flow hash is 0
        int previousSlot = 0;
        for (int i = 0; i < n; i++) {
            int hash = hashes[i];
            if (hash != previousHash) {
                previousHash = hash;
                previousSlot = Math.max(0, likelySlot(hash));
            }
            likely[i] = previousSlot;
        }
        boolean ipv6 = false;
        for (int i = 0; i < n; i++) {
            loaded += get(likely[i] * WORDS);
            ipv6 |= FlowKey.ipVersion(l4Words[i]) != 4;
        }
        if (ipv6) {
            for (int i = 0; i < n; i++) {
                if (FlowKey.ipVersion(l4Words[i]) != 4) {
                    loaded += get(likely[i] * WORDS + SRC_LO_WORD);
                }
            }
        }
        return loaded;
    }

    /**
     * The ways of the bucket at {@code first} whose signature is {@code hash}, as bits (way w: bit w), in
     * arithmetic only. A select per way ({@code ? :}) cost as a branch would that mispredicts once a row: with many
     * flows the way that matches is a random one of four. The arithmetic took about 9 ns a packet off 125,000 flows
     * and nothing off one (docs/benchmarks.md, the twentieth round). The highest bit is the last such way.
     */
    private int signedWays(int first, int hash) {
        int ways = 0;
        for (int w = 0; w < WAYS; w++) {
            int x = signatures[first + w] ^ hash;
            ways |= ((x - 1) & ~x) >>> 31 << w; // 1 exactly when x is 0
        }
        return ways;
    }

    /** The action index of a current entry found by {@link #lookup}. */
    public int actionIndex(int slot) {
        return actionIndexOf(get(slot * WORDS + META_WORD));
    }

    /** The action index of the entry the last {@link #lookup} found current, from the word the lookup read. */
    public int hitActionIndex() {
        return actionIndexOf(hitMeta);
    }

    private static int actionIndexOf(long meta) {
        return (int) (meta >>> 16) & 0xFFFF;
    }

    /**
     * Counts the packet that installed the entry at {@code slot}, its first. Apart from {@link #count}, whose
     * first-packet branch a hit seldom takes: with one method for both, the JIT once compiled a hit path from a
     * profile of installs only, and that path left compiled code on every hit (docs/benchmarks.md).
     */
    public void countFirst(int slot, int bytes, int tcpFlags, int nowMillis) {
        int base = slot * WORDS;
        set(base + PACKETS_WORD, 1L << FLAG_BITS | tcpFlags);
        set(base + BYTES_WORD, bytes);
        set(base + SEEN_WORD, (long) nowMillis << 32);
    }

    /**
     * Counts one packet of {@code bytes} with TCP flags {@code tcpFlags} on the entry at {@code slot}: line 0 only,
     * but for the first packet counted since an export, whose time starts the flow's next record.
     */
    public void count(int slot, int bytes, int tcpFlags, int nowMillis) {
        int base = slot * WORDS;
        long counted = get(base + PACKETS_WORD);
        set(base + PACKETS_WORD, (counted + (1L << FLAG_BITS)) | tcpFlags);
        add(base + BYTES_WORD, bytes);
        if (counted >>> FLAG_BITS == 0) {
            set(base + SEEN_WORD, (long) nowMillis << 32);
        }
    }

    /** Packets counted on the entry at word {@code base} (since install, revalidation or the last export). */
    private long packets(int base) {
        return get(base + PACKETS_WORD) >>> FLAG_BITS;
    }

    /**
     * Sends entries' counters to {@code records} from now on (null: to nowhere), with the flow timeouts the
     * sweep applies. Counters counted before export was on are discarded, those counted under it exported
     * first, so a record holds only packets counted while export was on.
     */
    public void exportTo(FlowRecords records, int activeMillis, int idleMillis) {
        if (records != export) {
            for (int slot = 0; slot < capacity; slot++) {
                if (signatures[slot] != 0) {
                    exportCounters(slot, FlowEndReason.FORCED_END);
                }
            }
        }
        export = records;
        activeTimeoutMillis = activeMillis;
        idleTimeoutMillis = idleMillis;
    }

    /** Labels the entry at {@code slot} with what its records carry: the deciding rule and the egress port. */
    public void label(int slot, int ruleId, int outPort) {
        set(slot * WORDS + LABELS_WORD, ((long) ruleId << 32) | ((long) ((outPort + 1) & 0xFFFF) << 16));
    }

    /** The flow of the key ended (TCP FIN or RST seen on the slow path): its entry's counters are exported. */
    public void endFlow(MemorySegment descriptors, long keyBase, int hash) {
        int slot = find(descriptors, keyBase, hash);
        if (slot >= 0) {
            exportCounters(slot, FlowEndReason.END_OF_FLOW);
        }
    }

    /**
     * Stamps a hit at {@code nowMillis} on the entry at {@code slot}. Returns the connection reference the caller
     * must {@link ConnectionTable#touch} when the stamp moved and the entry rests on a connection without being
     * its registered entry (whose stamp the connection reads itself), else {@link #NO_CONNECTION}.
     */
    public int touch(int slot, int nowMillis) {
        return stamp(slot, get(slot * WORDS + STAMP_WORD), nowMillis);
    }

    /**
     * {@link #touch} of {@code slot}, the entry the last {@link #lookup} found current, from the word that lookup
     * read: once per lookup, before any other change to the entry.
     */
    public int touchHit(int slot, int nowMillis) {
        return stamp(slot, hitStamp, nowMillis);
    }

    private int stamp(int slot, long lastHit, int nowMillis) {
        int at = slot * WORDS + STAMP_WORD;
        if ((int) (lastHit >>> 32) == nowMillis) {
            return NO_CONNECTION;
        }
        set(at, ((long) nowMillis << 32) | (lastHit & 0xFFFF_FFFFL));
        int connection = (int) lastHit;
        return registered(connection) ? NO_CONNECTION : connection;
    }

    /** The connection reference the entry at {@code slot} rests on, or {@link #NO_CONNECTION}. */
    public int connection(int slot) {
        int connection = (int) get(slot * WORDS + STAMP_WORD);
        return connection == NO_CONNECTION ? connection : connection & ~RESTING;
    }

    /** {@link #install} of an entry whose verdict rests on no connection. */
    public int install(MemorySegment descriptors, long keyBase, int hash, int actionIndex, int generation,
            int nowMillis) {
        return install(descriptors, keyBase, hash, actionIndex, generation, nowMillis, NO_CONNECTION);
    }

    /**
     * Installs (or refreshes) the entry for the key, with a fresh staged expiry, resting on the connection
     * {@code connection} (a {@link ConnectionTable} reference, or {@link #NO_CONNECTION}). Returns its slot. May
     * move other entries to their alternative buckets (slots returned earlier are then stale); evicts the entry
     * nearest to expiry only when no room could be made.
     */
    public int install(MemorySegment descriptors, long keyBase, int hash, int actionIndex, int generation,
            int nowMillis, int connection) {
        if (actionIndex < 0 || actionIndex >= MAX_ACTIONS) {
            counters[INSERTION_FAILURES]++;
            return -1;
        }
        int slot = find(descriptors, keyBase, hash);
        if (slot < 0) {
            slot = freeOrVictim(hash, nowMillis);
            counters[INSERTIONS]++;
        } else {
            exportCounters(slot, FlowEndReason.FORCED_END); // revalidated: counting starts again
        }
        if (signatures[slot] != 0) {
            release(slot); // revalidated, expired or evicted: the entry there lets go of its connection
        }
        int base = slot * WORDS;
        for (int w = 0; w < KEY_WORDS; w++) {
            set(base + KEY_WORD_AT[w], descriptors.get(LONG, keyBase + 8L * w));
        }
        int expiry = nowMillis + minExpiryMillis + nextSpread();
        set(base + META_WORD, ((long) expiry << 32) | ((long) actionIndex << 16) | (generation & 0xFFFF));
        if (boundByNone || expiry - earliestExpiry < 0) {
            earliestExpiry = expiry;
            boundByNone = false;
        }
        lowerCycleBound(expiry);
        changes++;
        long lastHit = ((long) nowMillis << 32) | (connection & 0xFFFF_FFFFL);
        set(base + STAMP_WORD, lastHit | (connection == NO_CONNECTION || restingId == 0 ? 0 : RESTING));
        if (connection != NO_CONNECTION && restingId != 0) {
            if (connections.rest(connection, restingId, slot)) {
                resting++;
            } else {
                set(base + STAMP_WORD, lastHit); // the direction has its registered entry: this one touches
            }
        }
        set(base + PACKETS_WORD, 0);
        set(base + BYTES_WORD, 0);
        set(base + SEEN_WORD, 0);
        set(base + LABELS_WORD, 0);
        signatures[slot] = hash;
        return slot;
    }

    /** Removes the entry for the key, if any: the slow path decided something the cache must not keep. */
    public void forget(MemorySegment descriptors, long keyBase, int hash) {
        int slot = find(descriptors, keyBase, hash);
        if (slot >= 0) {
            exportCounters(slot, FlowEndReason.FORCED_END);
            release(slot);
            signatures[slot] = 0;
            counters[ENTRIES]--;
            changes++;
        }
    }

    /**
     * Removes every entry resting on one of the connections in {@code connectionSlots} (ascending
     * {@link ConnectionTable} slots, either direction): the connections were cleared, and their flows' next packets
     * must meet the slow path. Returns the entries removed. Control path: walks the whole cache.
     */
    public int forgetConnections(int[] connectionSlots) {
        int removed = 0;
        for (int slot = 0; slot < capacity; slot++) {
            int connection = connection(slot);
            if (signatures[slot] != 0 && connection != NO_CONNECTION
                    && java.util.Arrays.binarySearch(connectionSlots, connection >>> 1) >= 0) {
                exportCounters(slot, FlowEndReason.FORCED_END);
                release(slot);
                signatures[slot] = 0;
                removed++;
            }
        }
        counters[ENTRIES] -= removed;
        changes += removed;
        return removed;
    }

    /**
     * Retires up to {@code budget} slots' worth of expired entries, continuing where the last sweep stopped; with
     * export on, also exports the counters of flows past their idle or active timeout. Without export it does
     * nothing while the cache is empty or before the earliest expiry the last full cycle found: an expired entry is
     * still retired within one cycle of sweeping after it expired, as when every tick swept.
     */
    public int sweep(int nowMillis, int budget) {
        if (export == null && (boundByNone || earliestExpiry - nowMillis > 0)) {
            return 0;
        }
        int retired = 0;
        int cursor = sweepCursor;
        for (int i = 0; i < budget; i++) {
            if (signatures[cursor] != 0) {
                int expiry = expiryMillis(cursor);
                if (expiry - nowMillis <= 0) {
                    exportCounters(cursor, FlowEndReason.FORCED_END);
                    release(cursor);
                    signatures[cursor] = 0;
                    retired++;
                } else {
                    lowerCycleBound(expiry);
                    if (export != null) {
                        exportTimedOut(cursor, nowMillis);
                    }
                }
            }
            cursor = (cursor + 1) & (capacity - 1);
            if (++cycleSwept == capacity) {
                // every entry now in the cache was passed, installed or moved during the cycle
                boundByNone = !cycleBounded;
                earliestExpiry = cycleEarliest;
                cycleSwept = 0;
                cycleBounded = false;
            }
        }
        sweepCursor = cursor;
        counters[EXPIRATIONS] += retired;
        counters[ENTRIES] -= retired;
        changes += retired;
        return retired;
    }

    private void lowerCycleBound(int expiry) {
        if (!cycleBounded || expiry - cycleEarliest < 0) {
            cycleEarliest = expiry;
            cycleBounded = true;
        }
    }

    /**
     * Moves whenever an entry changed other than by a hit, and the caller tells hits by {@link #HITS}: an unchanged
     * sum means the entries, their counters included, are as they were. Worker thread.
     */
    public long version() {
        return changes + counters[HITS];
    }

    /** Empties the cache (e.g. on an operator's flush or when generations wrap). */
    public void flush() {
        if (export != null || resting > 0) {
            for (int slot = 0; slot < capacity; slot++) {
                if (signatures[slot] != 0) {
                    exportCounters(slot, FlowEndReason.FORCED_END);
                    release(slot);
                }
            }
        }
        java.util.Arrays.fill(signatures, 0);
        counters[ENTRIES] = 0;
        changes++;
        boundByNone = true;
    }

    /**
     * Test seam: every entry now gives the action {@code actionIndex} instead of its own — a cache that no longer
     * says what the slow path says, for the live verifier to catch.
     */
    public void corrupt(int actionIndex) {
        for (int slot = 0; slot < signatures.length; slot++) {
            int at = slot * WORDS + META_WORD;
            set(at, (get(at) & ~0xFFFF_0000L) | ((long) (actionIndex & 0xFFFF) << 16));
        }
        changes++;
    }

    /** The expiry of the entry at {@code slot}, for tests and telemetry. */
    public int expiryMillis(int slot) {
        return (int) (get(slot * WORDS + META_WORD) >>> 32);
    }

    /**
     * Offers the entries of slots {@code [from, to)} to {@code into} (a slice of a top-flows pass: bounded work,
     * nothing allocated), each with its action when it is of {@code generation}, else null.
     */
    public void offerBusiest(int from, int to, TopFlowSelection into, ActionTable actions, int generation) {
        for (int slot = from; slot < to; slot++) {
            int base = slot * WORDS;
            if (signatures[slot] != 0 && into.wants(packets(base))) {
                long meta = get(base + META_WORD);
                int action = actionIndex(slot);
                into.offer(key(base), packets(base), get(base + BYTES_WORD),
                        ((int) meta & 0xFFFF) == (generation & 0xFFFF) && action < actions.size()
                                ? actions.get(action) : null);
            }
        }
    }

    /** The slot holding the key, current or not, or -1; counts nothing (a packet trace looks with it). */
    public int find(MemorySegment descriptors, long keyBase, int hash) {
        int slot = findIn(primary(hash), descriptors, keyBase, hash);
        return slot >= 0 ? slot : findIn(secondary(hash), descriptors, keyBase, hash);
    }

    private int findIn(int first, MemorySegment descriptors, long keyBase, int hash) {
        for (int slot = first; slot < first + WAYS; slot++) {
            if (signatures[slot] == hash && matches(slot * WORDS, descriptors, keyBase)) {
                return slot;
            }
        }
        return -1;
    }

    /** First slot of the key's primary bucket. */
    private int primary(int hash) {
        return (hash & bucketMask) * WAYS;
    }

    /** First slot of the key's alternative bucket: the top bits of a product, which depend on every hash bit. */
    private int secondary(int hash) {
        // & bucketMask: with a single bucket the shift is 32, which Java takes as 0
        return (((hash * 0x9E3779B1) >>> bucketShift) & bucketMask) * WAYS;
    }

    /** First slot of the other candidate bucket of the entry at {@code slot}, which sits in bucket {@code first}. */
    private int alternative(int slot, int first) {
        int hash = signatures[slot];
        int primary = primary(hash);
        return primary == first ? secondary(hash) : primary;
    }

    /**
     * Whether the entry at word {@code base} holds the key at {@code keyBase}: the words in line 0, and for a key
     * other than IPv4 the low address words in line 1 (an IPv4 key's are 0, and the L4 words' IP versions match).
     */
    private boolean matches(int base, MemorySegment d, long keyBase) {
        long l4 = d.get(LONG, keyBase + FlowKey.L4);
        return get(base + L4_WORD) == l4
                && get(base + SRC_HI_WORD) == d.get(LONG, keyBase + FlowKey.SRC_HI)
                && get(base + DST_HI_WORD) == d.get(LONG, keyBase + FlowKey.DST_HI)
                && get(base + L2_WORD) == d.get(LONG, keyBase + FlowKey.L2)
                && (FlowKey.ipVersion(l4) == 4
                        || get(base + SRC_LO_WORD) == d.get(LONG, keyBase + FlowKey.SRC_LO)
                        && get(base + DST_LO_WORD) == d.get(LONG, keyBase + FlowKey.DST_LO));
    }

    private int freeOrVictim(int hash, int nowMillis) {
        int first = primary(hash);
        int second = secondary(hash);
        int free = freeIn(first);
        if (free < 0) {
            free = freeIn(second);
        }
        if (free >= 0) {
            counters[ENTRIES]++;
            return free;
        }
        int victim = nearestExpiry(first, nowMillis);
        int other = nearestExpiry(second, nowMillis);
        if (untilExpiry(other, nowMillis) < untilExpiry(victim, nowMillis)) {
            victim = other;
        }
        if (untilExpiry(victim, nowMillis) <= 0) {
            counters[EXPIRATIONS]++; // the sweep would have retired it: reuse its slot
            exportCounters(victim, FlowEndReason.FORCED_END);
            return victim;
        }
        free = counters[ENTRIES] < capacity ? displace(first, second) : -1;
        if (free >= 0) {
            counters[ENTRIES]++;
            return free;
        }
        counters[EVICTIONS]++;
        exportCounters(victim, FlowEndReason.LACK_OF_RESOURCES);
        return victim;
    }

    /**
     * Frees a slot in bucket {@code first} or {@code second} (both full) by moving entries along the shortest
     * path, found breadth-first, that ends in a bucket with a free slot; returns that slot, or -1 when no path
     * exists within {@link #SEARCH_BUCKETS} buckets.
     */
    private int displace(int first, int second) {
        int tail = 0;
        searchBucket[tail] = first;
        searchParent[tail++] = -1;
        if (second != first) {
            searchBucket[tail] = second;
            searchParent[tail++] = -1;
        }
        for (int node = 0; node < tail; node++) {
            int bucket = searchBucket[node];
            for (int slot = bucket; slot < bucket + WAYS; slot++) {
                int next = alternative(slot, bucket);
                if (next == bucket || onPath(node, next)) {
                    continue; // a path through a bucket twice would move one entry twice
                }
                int free = freeIn(next);
                if (free >= 0) {
                    return moveAlong(node, slot, free);
                }
                if (tail < SEARCH_BUCKETS) {
                    searchBucket[tail] = next;
                    searchParent[tail] = node;
                    searchFrom[tail++] = slot;
                }
            }
        }
        return -1;
    }

    private boolean onPath(int node, int bucket) {
        for (int n = node; n >= 0; n = searchParent[n]) {
            if (searchBucket[n] == bucket) {
                return true;
            }
        }
        return false;
    }

    /** Moves the entry at {@code slot} (in {@code node}'s bucket) to {@code free}, then each parent's entry into
     *  the slot just vacated, back to the key's own bucket; returns the slot vacated there. */
    private int moveAlong(int node, int slot, int free) {
        move(slot, free);
        for (int n = node; searchParent[n] >= 0; n = searchParent[n]) {
            move(searchFrom[n], slot);
            slot = searchFrom[n];
        }
        return slot;
    }

    private void move(int from, int to) {
        MemorySegment.copy(MEMORY, address(from * WORDS), MEMORY, address(to * WORDS), WORDS * Long.BYTES);
        int connection = (int) get(to * WORDS + STAMP_WORD);
        if (registered(connection)) {
            connections.moved(connection & ~RESTING, restingId, to);
        }
        signatures[to] = signatures[from];
        signatures[from] = 0;
        lowerCycleBound(expiryMillis(to)); // it may have moved behind the sweep's cursor
    }

    /** Whether the stamp word's connection half {@code connection} is a registered entry's (not
     *  {@link #NO_CONNECTION}). */
    private static boolean registered(int connection) {
        return connection != NO_CONNECTION && (connection & RESTING) != 0;
    }

    /**
     * The entry at {@code slot} leaves (removed or replaced): a registered one hands its last hit to its connection
     * direction, which then has no registered entry.
     */
    private void release(int slot) {
        int at = slot * WORDS + STAMP_WORD;
        long lastHit = get(at);
        int connection = (int) lastHit;
        if (registered(connection)) {
            connections.leave(connection & ~RESTING, (int) (lastHit >>> 32));
            set(at, lastHit & ~RESTING);
            resting--;
        }
    }

    /** Exports the counters of the entry at {@code slot} (when export is on and it counted any) and zeroes them. */
    private void exportCounters(int slot, int endReason) {
        int base = slot * WORDS;
        if (export != null) {
            long labels = get(base + LABELS_WORD);
            long counted = get(base + PACKETS_WORD);
            export.offer(key(base), 0, counted >>> FLAG_BITS, get(base + BYTES_WORD),
                    (int) (get(base + SEEN_WORD) >>> 32), (int) (get(base + STAMP_WORD) >>> 32),
                    (int) counted & 0xFF, endReason, FlowRecords.ruleId(labels), FlowRecords.outPort(labels));
        }
        set(base + PACKETS_WORD, 0);
        set(base + BYTES_WORD, 0);
        set(base + SEEN_WORD, 0);
        changes++;
    }

    /** A current entry's counters go out at the flow's idle timeout (no packet since) or its active timeout. */
    private void exportTimedOut(int slot, int nowMillis) {
        int base = slot * WORDS;
        if (packets(base) == 0) {
            return;
        }
        if (nowMillis - (int) (get(base + STAMP_WORD) >>> 32) >= idleTimeoutMillis) {
            exportCounters(slot, FlowEndReason.IDLE_TIMEOUT);
        } else if (nowMillis - (int) (get(base + SEEN_WORD) >>> 32) >= activeTimeoutMillis) {
            exportCounters(slot, FlowEndReason.ACTIVE_TIMEOUT);
        }
    }

    private int freeIn(int first) {
        for (int slot = first; slot < first + WAYS; slot++) {
            if (signatures[slot] == 0) {
                return slot;
            }
        }
        return -1;
    }

    private int nearestExpiry(int first, int nowMillis) {
        int victim = first;
        for (int slot = first + 1; slot < first + WAYS; slot++) {
            if (untilExpiry(slot, nowMillis) < untilExpiry(victim, nowMillis)) {
                victim = slot;
            }
        }
        return victim;
    }

    private int untilExpiry(int slot, int nowMillis) {
        return expiryMillis(slot) - nowMillis;
    }

    private long get(int word) {
        return MEMORY.get(LONG, address(word));
    }

    private void set(int word, long value) {
        MEMORY.set(LONG, address(word), value);
    }

    private void add(int word, long value) {
        set(word, get(word) + value);
    }

    /** The key of the entry at word {@code base}, in {@link FlowKey}'s order, in {@link #copied}. */
    private long[] key(int base) {
        for (int w = 0; w < KEY_WORDS; w++) {
            copied[w] = get(base + KEY_WORD_AT[w]);
        }
        return copied;
    }

    /** The address of entry word {@code word} (slot × {@link #WORDS} + word of the entry; slots below capacity). */
    private long address(int word) {
        return entriesAddress + (long) word * Long.BYTES;
    }

    private int nextSpread() {
        long x = random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random = x;
        return (int) (((x >>> 32) * expirySpreadMillis) >>> 32);
    }
}
