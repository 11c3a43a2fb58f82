package io.edp.engine.slowpath;

import io.edp.engine.packet.FlowKey;
import io.edp.engine.packetlog.PacketLogWriter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Connection tracking shared by every worker (the two directions of a connection arrive on different queues) and
 * by every generation of the engine — and by the next engine when one is rebuilt, so no reconfiguration cuts a
 * connection. The table is split into stripes, each an open-addressing array of 8-long entries guarded by its own
 * monitor, so a slow-path lookup locks one stripe at most, probes primitive arrays and allocates nothing. Most
 * lookups lock nothing: a packet that only keeps its connection alive reads the stripe under its version (a
 * sequence lock) and stores its time like a cache hit (see below), so LEGACY, which looks every packet up, takes
 * no monitor per packet.
 * <pre>
 *  word field
 *  0-3  address a (hi, lo), address b (hi, lo); a is the lower (address, port) end, so both directions match
 *  4    aPort(16) bPort(16) proto(8) ipVersion(8) 0(16); ipVersion 0 marks a free slot
 *  5    state(8) initiatorIsA(8) 0(16) ruleId(32)
 *  6    last seen by the slow path, ms(32) | policy version it was last checked under(32)
 *  7    the initiator's ingress port(32) | its switched egress port, -1 when routed(32)
 * </pre>
 * <b>Liveness follows the fast path.</b> Beside the entries, {@code seen} holds one last-seen time per connection
 * and direction (index: the connection's reference, {@code slot << 1 | direction}). A connection expires at
 * max(its last-seen times, the last hits of the flow-cache entries resting on it) + the idle timeout of its
 * state. A direction's first cache entry registers with it ({@link #rest}): its hits stamp only the entry's own
 * line, and the connection reads that stamp when its own times say it timed out (then folding it into
 * {@code seen}, so it asks again only a timeout later). An entry that stops resting on it folds its last hit into
 * {@code seen} first ({@link #leave}). Further entries of the same direction (another worker's, after its queue
 * moved) store their hits into {@code seen} ({@link #touch}: opaque, no lock, at most once per millisecond per
 * entry). State changes only on the packets that always take the slow path (TCP SYN, FIN, RST), so a cache hit
 * never owes its connection a transition, only its last-seen time: the table then expires every connection
 * exactly when it would without the cache.
 * <p>States are a loose TCP model (mid-stream pickup allowed): SYN_SENT, ESTABLISHED, FIN_WAIT, CLOSED, plus
 * ACTIVE for UDP/ICMP/other; each has its idle timeout. The rules a connection was checked under are numbered
 * by {@link #policyVersion}: when the rules change, a connection met under an older version is re-checked against
 * the current rules in its initiator's direction (with the initiator's ports) on its next packet, whichever way
 * that packet goes, and forgotten if they no longer allow it. Besides that, workers {@link #sweep} the table a
 * bounded slice at a time, retiring connections that timed out.
 * <p><b>Packet log.</b> A connection whose rule is logged counts the packets and bytes of each direction (the
 * slow path here, the fast path through {@link #count}) and writes a TERM line when it ends: the packet that
 * closes it (RST, or the second FIN), its timeout (the sweep, or the reuse of its slot, whichever comes first), or
 * a rule change that no longer allows it (REVOKED, on its next packet, as it is forgotten), or its clearing
 * ({@link #remove}: CLEARED).
 */
public final class ConnectionTable {

    public static final int SYN_SENT = 1;
    public static final int ESTABLISHED = 2;
    public static final int FIN_WAIT = 3;
    public static final int CLOSED = 4;
    public static final int ACTIVE = 5;

    /** The shortest idle timeout of any state: a cache entry idle this long may rest on a dead connection. */
    public static final int SHORTEST_TIMEOUT_MILLIS = 20_000;

    /** {@link #find} result: no live connection; evaluate the rules. */
    public static final long NOT_FOUND = -1;
    /** {@link #insert} result: the stripe has no room. */
    public static final long FULL = -2;
    /** {@link #unlockedHit} result: take the stripe's monitor. */
    private static final long RETRY = -3;

    private static final int WORDS = 8;
    /** Linear probing at half load still meets runs of 16 among a hundred thousand connections: allow longer. */
    private static final int MAX_PROBES = 64;
    private static final int STRIPES = 64;
    /** Slots a sweep examines per stripe lock. */
    private static final int SWEEP_SLICE = 64;
    /** Connection slots the table can hold: references ({@code slot << 1 | direction}) leave bits 30 and 31 free. */
    public static final int MAX_CAPACITY = 1 << 28;
    /** A {@link #rest} token ({@code cache id << SLOT_BITS | slot}) holds the entry's slot in its low bits. */
    private static final int SLOT_BITS = 19;
    /** Slots a registered flow cache may have. */
    public static final int RESTING_SLOTS = 1 << SLOT_BITS;
    /** Flow caches that can be registered at once ({@link #register}); token 0 stands for none. */
    private static final int MAX_CACHES = (1 << (31 - SLOT_BITS)) - 1;
    private static final VarHandle SEEN = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle RESTING = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final String[] STATE_NAMES = {"", "SYN_SENT", "ESTABLISHED", "FIN_WAIT", "CLOSED", "ACTIVE"};

    private final Stripe[] stripes = new Stripe[STRIPES];
    private final int stripeMask;
    private final int capacity;
    /** Last seen by the fast path, per connection reference (slot and direction); see the class comment. */
    private final int[] seen;
    /**
     * The registered entry per connection reference: {@code changes << 32 | token}, with a low
     * half of 0 for none. Set from none by the entry's worker ({@link #rest}), changed only by it ({@link #moved},
     * {@link #leave}); every change counts in the high half, so an entry that moves away and back is not read as
     * if it had stayed.
     */
    private final long[] resting;
    /** The registered flow caches, by id (index 0 unused). */
    private final AtomicReferenceArray<RestingEntries> caches = new AtomicReferenceArray<>(MAX_CACHES + 1);
    /**
     * Packets and bytes per connection reference ({@code 2 * reference}, {@code + 1}): logged connections only.
     * Each direction's pair is written only by the worker that sees that direction's packets (its fast path and
     * its slow path), never by the other direction's worker: see {@link #replyStart}.
     */
    private final long[] counts;
    /**
     * The responder direction's counts when the connection started, per slot: a connection starts (or restarts)
     * on its initiator's worker, which zeroes its own direction's counts but only reads the responder's, so a
     * worker counting the responder's packets at that moment (cache hits of a restarted connection) never loses
     * an increment to a zeroing store, nor keeps counts from before the start. Under the stripe lock.
     */
    private final long[] replyStart;
    /** The next slot {@link #sweep} looks at; workers claim slices of it. */
    private final AtomicInteger sweepCursor = new AtomicInteger();
    private List<FirewallRule> policy;
    private int policyVersion;

    private static final class Stripe {
        private static final VarHandle VERSION;

        static {
            try {
                VERSION = MethodHandles.lookup().findVarHandle(Stripe.class, "version", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final long[] entries;
        /** The global slot number of this stripe's slot 0. */
        final int firstSlot;
        /** Entries holding a connection (a state), timed out or not: a sweep passes a stripe without any. */
        int live;
        /**
         * Odd while a writer (under the stripe's monitor) may be changing it, even otherwise, and moved by every
         * change: {@link #unlockedHit} reads the stripe without the monitor and keeps what it read only when the
         * version was even and did not move meanwhile (a sequence lock: readers never write, so they never contend).
         */
        private int version;

        Stripe(int slots, int firstSlot) {
            entries = new long[slots * WORDS];
            this.firstSlot = firstSlot;
        }

        /** Under the monitor, before a change: readers now retry. */
        void changing() {
            VERSION.setOpaque(this, version + 1);
            VarHandle.storeStoreFence(); // the odd version is seen before any changed word
        }

        /** Under the monitor, after the change: its words are seen before the even version. */
        void changed() {
            VERSION.setRelease(this, version + 1);
        }

        /** An even version to read the stripe under, or -1 while a writer is changing it. */
        int readVersion() {
            int v = (int) VERSION.getAcquire(this);
            return (v & 1) == 0 ? v : -1;
        }

        /** Whether nothing changed the stripe since {@link #readVersion} gave {@code v}. */
        boolean unchangedSince(int v) {
            VarHandle.loadLoadFence(); // the stripe's words were read before the version is read again
            return (int) VERSION.getOpaque(this) == v;
        }
    }

    public ConnectionTable(int capacity) {
        if (capacity < STRIPES * 4 || capacity > MAX_CAPACITY || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("conntrack capacity must be a power of two in [" + STRIPES * 4
                    + ", " + MAX_CAPACITY + "]: " + capacity);
        }
        int perStripe = capacity / STRIPES;
        this.capacity = capacity;
        this.stripeMask = perStripe - 1;
        this.seen = new int[capacity * 2];
        this.resting = new long[capacity * 2];
        this.counts = new long[capacity * 4];
        this.replyStart = new long[capacity * 2];
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe(perStripe, i * perStripe);
        }
    }

    /**
     * Heap a table of {@code capacity} slots holds: its entries, two last-seen times, two resting entries and six
     * counts per slot.
     */
    public static long bytes(int capacity) {
        return (long) capacity * (WORDS * Long.BYTES + 2 * Integer.BYTES + 8 * Long.BYTES);
    }

    public int capacity() {
        return capacity;
    }

    /**
     * The version number of a rule set: the current one when {@code rules} equal the rules last numbered, else the
     * next. Connections checked under another version are re-checked on their next packet. Control path.
     */
    public synchronized int policyVersion(List<FirewallRule> rules) {
        if (!rules.equals(policy)) {
            policy = List.copyOf(rules);
            policyVersion++;
        }
        return policyVersion;
    }

    /**
     * Looks the packet's connection up and advances its state. When it lets the packet through without rule
     * evaluation, returns {@code ruleId << 32 | reference} (both ≥ 0; the reference is what a cache entry gives
     * {@link #touch}). A connection last checked under another policy version is first re-checked against
     * {@code rules} in its initiator's direction; when they no longer allow it, it is forgotten. Else (no live
     * connection, or a forgotten one) {@link #NOT_FOUND}: the packet meets the rules in its own direction.
     * When the connection's rule is logged, the packet ({@code length} bytes) is counted, and the packet that
     * closes the connection writes its TERM line to {@code log}.
     */
    public long find(long srcHi, long srcLo, long dstHi, long dstLo, long l4, int tcpFlags, int nowMillis,
            RuleSet rules, int policyVersion, int length, PacketLogWriter log) {
        return lookup(srcHi, srcLo, dstHi, dstLo, l4, tcpFlags, nowMillis, rules, policyVersion, false, length, log);
    }

    /**
     * What {@link #find} would return, without its effects: no state advanced, no packet's time or policy version
     * written, no connection forgotten (a resting entry's hit it reads may be written down, as any reader of the
     * connection's times does: {@link #lastSeenOrHit}). For the live verifier, which re-evaluates a fast-path hit.
     */
    public long peek(long srcHi, long srcLo, long dstHi, long dstLo, long l4, int tcpFlags, int nowMillis,
            RuleSet rules, int policyVersion) {
        return lookup(srcHi, srcLo, dstHi, dstLo, l4, tcpFlags, nowMillis, rules, policyVersion, true, 0, null);
    }

    /**
     * Loads the lines {@link #find} reads first for the packet's connection (its home slot's entry and last-seen
     * times) and returns a sum of what it read, for the caller to keep so that the loads stay. LEGACY looks every
     * packet up here: a burst that warms all its packets' lines before the first lookup overlaps their cache misses
     * instead of meeting them one at a time. No lock: what it reads does not matter, only that it is in the cache.
     */
    public long warm(long srcHi, long srcLo, long dstHi, long dstLo, long l4) {
        boolean srcIsA = srcIsA(srcHi, srcLo, dstHi, dstLo, l4);
        long ports = portsWord(l4, srcIsA);
        int hash = hash(srcHi, srcLo, dstHi, dstLo, srcIsA, ports);
        Stripe s = stripes[hash >>> 26];
        int slot = hash & stripeMask;
        // an entry's eight words span two cache lines unless the array happens to start on a line
        return s.entries[slot * WORDS] + s.entries[slot * WORDS + WORDS - 1] + seen[(s.firstSlot + slot) << 1];
    }

    private long lookup(long srcHi, long srcLo, long dstHi, long dstLo, long l4, int tcpFlags, int nowMillis,
            RuleSet rules, int policyVersion, boolean readOnly, int length, PacketLogWriter log) {
        boolean srcIsA = srcIsA(srcHi, srcLo, dstHi, dstLo, l4);
        long ports = portsWord(l4, srcIsA);
        int hash = hash(srcHi, srcLo, dstHi, dstLo, srcIsA, ports);
        Stripe s = stripes[hash >>> 26];
        if (!readOnly) {
            long unlocked = unlockedHit(s, hash, srcIsA, srcHi, srcLo, dstHi, dstLo, ports, l4, tcpFlags, nowMillis,
                    rules, policyVersion);
            if (unlocked != RETRY) {
                return unlocked;
            }
        }
        synchronized (s) {
            s.changing();
            try {
                int base = probe(s, hash, srcIsA, srcHi, srcLo, dstHi, dstLo, ports, nowMillis);
                if (base < 0) {
                    return NOT_FOUND;
                }
                long[] e = s.entries;
                int state = (int) (e[base + 5] >>> 56);
                if (state == CLOSED && (tcpFlags & FlowKey.TCP_SYN) != 0) {
                    return NOT_FOUND; // a new connection on the same addresses and ports: it meets the rules
                }
                boolean initiatorIsA = ((e[base + 5] >>> 48) & 1) == 1;
                int ruleId = (int) e[base + 5];
                if ((int) e[base + 6] != policyVersion) {
                    int rule = recheck(e, base, initiatorIsA, rules);
                    if (rule >= 0 && rules.verdict(rule) != Verdict.ALLOW) {
                        if (!readOnly) {
                            endedIfLogged(s, base, PacketLogWriter.REVOKED, nowMillis, rules, log);
                            forget(s, base, nowMillis);
                        }
                        return NOT_FOUND;
                    }
                    ruleId = rule < 0 ? 0 : rules.id(rule);
                }
                if (readOnly) {
                    return ((long) ruleId << 32) | reference(s, base, srcIsA);
                }
                int next = nextState(state, FlowKey.proto(l4), tcpFlags, initiatorIsA == srcIsA);
                e[base + 5] = ((long) next << 56) | ((initiatorIsA ? 1L : 0L) << 48) | (ruleId & 0xFFFF_FFFFL);
                e[base + 6] = ((long) nowMillis << 32) | (policyVersion & 0xFFFF_FFFFL);
                int reference = reference(s, base, srcIsA);
                if (rules.logsId(ruleId)) {
                    count(reference, length);
                    if (next == CLOSED && state != CLOSED) {
                        ended(s, base, (tcpFlags & FlowKey.TCP_RST) != 0 ? PacketLogWriter.RST : PacketLogWriter.FIN,
                                nowMillis, log);
                    }
                }
                return ((long) ruleId << 32) | reference;
            } finally {
                s.changed();
            }
        }
    }

    /**
     * {@link #find} for the packets that change nothing but their connection's last-seen time — the connection is
     * live, the packet moves no state, the rules are those it was checked under and its rule is not logged — and
     * for those that find no connection: without the stripe's monitor (LEGACY looks every packet up), reading the
     * stripe under its version and storing the time into {@code seen}, as an unregistered cache entry's hit does
     * ({@link #touch}). {@link #RETRY} when the packet owes more, or a writer was changing the stripe or changed it
     * meanwhile.
     */
    private long unlockedHit(Stripe s, int hash, boolean srcIsA, long srcHi, long srcLo, long dstHi, long dstLo,
            long ports, long l4, int tcpFlags, int nowMillis, RuleSet rules, int policyVersion) {
        int version = s.readVersion();
        if (version < 0) {
            return RETRY;
        }
        // the reads may see a stripe halfway through a change: nothing below can fail on that, and the version
        // check discards what they found
        int base = probe(s, hash, srcIsA, srcHi, srcLo, dstHi, dstLo, ports, nowMillis);
        long found = NOT_FOUND; // also a SYN on a closed connection: a new one, as under the monitor
        if (base >= 0) {
            long[] e = s.entries;
            long word = e[base + 5];
            int state = (int) (word >>> 56);
            if (state != CLOSED || (tcpFlags & FlowKey.TCP_SYN) == 0) {
                boolean fromInitiator = (((word >>> 48) & 1) == 1) == srcIsA;
                int ruleId = (int) word;
                boolean unchanged = (int) e[base + 6] == policyVersion && !rules.logsId(ruleId)
                        && nextState(state, FlowKey.proto(l4), tcpFlags, fromInitiator) == state;
                found = unchanged ? ((long) ruleId << 32) | reference(s, base, srcIsA) : RETRY;
            }
        }
        if (!s.unchangedSince(version)) {
            return RETRY;
        }
        if (found >= 0) {
            // a slot retaken right after the check gets this time, one clock reading of another worker's burst
            // from its own start time: a cache hit's store can land there the same way
            touch((int) found, nowMillis);
        }
        return found;
    }

    /**
     * Records a connection the rules allowed the packet to start under {@code ruleId} (or restarts one, for a SYN
     * on a closed connection); returns {@code ruleId << 32 | reference} like {@link #find}, or {@link #FULL}.
     * {@code inPort} and {@code outPort} (-1 when routed) are the packet's, kept for re-checking the connection in
     * its initiator's direction. A restart under the policy version the connection was last checked under keeps
     * the connection's rule: flow-cache entries of the closed connection's directions (the responder's SYN does
     * not reach them) may still serve packets with that rule, and the slow path must give them the same.
     * Under a logged rule the connection's counts start with this packet ({@code length} bytes); a timed-out
     * connection whose slot is taken over writes its TERM line to {@code log} first.
     */
    public long insert(long srcHi, long srcLo, long dstHi, long dstLo, long l4, int tcpFlags, int nowMillis,
            int policyVersion, int ruleId, int inPort, int outPort, int length, RuleSet rules, PacketLogWriter log) {
        boolean srcIsA = srcIsA(srcHi, srcLo, dstHi, dstLo, l4);
        long ports = portsWord(l4, srcIsA);
        int hash = hash(srcHi, srcLo, dstHi, dstLo, srcIsA, ports);
        Stripe s = stripes[hash >>> 26];
        synchronized (s) {
            s.changing();
            try {
                long[] e = s.entries;
                int base = probe(s, hash, srcIsA, srcHi, srcLo, dstHi, dstLo, ports, nowMillis);
                if (base >= 0 && (int) e[base + 6] == policyVersion) {
                    ruleId = (int) e[base + 5];
                } else if (base < 0) {
                    base = freeSlot(s, hash, nowMillis, rules, log);
                    if (base < 0) {
                        return FULL;
                    }
                    e[base] = srcIsA ? srcHi : dstHi;
                    e[base + 1] = srcIsA ? srcLo : dstLo;
                    e[base + 2] = srcIsA ? dstHi : srcHi;
                    e[base + 3] = srcIsA ? dstLo : srcLo;
                    e[base + 4] = ports;
                    int first = reference(s, base, true);
                    SEEN.setOpaque(seen, first, nowMillis);
                    SEEN.setOpaque(seen, first + 1, nowMillis);
                    s.live++;
                }
                int state = firstState(FlowKey.proto(l4), tcpFlags);
                e[base + 5] = ((long) state << 56) | ((srcIsA ? 1L : 0L) << 48) | (ruleId & 0xFFFF_FFFFL);
                e[base + 6] = ((long) nowMillis << 32) | (policyVersion & 0xFFFF_FFFFL);
                e[base + 7] = ((long) inPort << 32) | (outPort & 0xFFFF_FFFFL);
                int reference = reference(s, base, srcIsA);
                counts[reference * 2] = 0;
                counts[reference * 2 + 1] = 0;
                int reply = (reference ^ 1) * 2;
                replyStart[(reference & ~1)] = (long) COUNT.getOpaque(counts, reply);
                replyStart[(reference & ~1) + 1] = (long) COUNT.getOpaque(counts, reply + 1);
                if (rules.logsId(ruleId)) {
                    count(reference, length);
                }
                return ((long) ruleId << 32) | reference;
            } finally {
                s.changed();
            }
        }
    }

    /**
     * Records that a cache entry resting on the connection {@code reference}, not its registered one
     * ({@link #rest}), took a hit at {@code nowMillis}: fast path, no lock, a store and no load (a store that
     * misses the cache does not stall the worker; a load would). A direction's writers are the workers that see
     * its packets, all reading one clock, so when two race the time kept is at most one of their clock readings
     * old.
     */
    public void touch(int reference, int nowMillis) {
        SEEN.setOpaque(seen, reference, nowMillis);
    }

    /**
     * Registers a worker's flow cache, whose entries may then rest on connections ({@link #rest}); returns its id
     * (&ge; 1), or 0 when {@link #MAX_CACHES} are registered: its entries then {@link #touch} on every hit.
     */
    public int register(RestingEntries cache) {
        for (int id = 1; id <= MAX_CACHES; id++) {
            if (caches.get(id) == null && caches.compareAndSet(id, null, cache)) {
                return id;
            }
        }
        return 0;
    }

    /** Ends the registration {@code id}, once its cache has let go of every connection ({@link #leave}). */
    public void unregister(int id) {
        caches.set(id, null);
    }

    /**
     * Makes the entry at {@code slot} (below {@link #RESTING_SLOTS}) of the cache registered as {@code id} the
     * one the connection direction {@code reference} asks for its last hit ({@link RestingEntries#lastHit}), so
     * that its hits need not {@link #touch}. False when the direction has a registered entry already: this one
     * must touch. The entry's worker, after the entry's line holds its reference and hit time.
     */
    public boolean rest(int reference, int id, int slot) {
        long current = (long) RESTING.getVolatile(resting, reference);
        return (int) current == 0
                && RESTING.compareAndSet(resting, reference, current, changed(current, id << SLOT_BITS | slot));
    }

    /** The resting value after {@code before}, naming {@code token} (0: none). */
    private static long changed(long before, int token) {
        return ((before >>> 32) + 1) << 32 | token;
    }

    /**
     * The registered entry of {@code reference} moved to {@code slot} of its cache {@code id}, its line copied
     * there. Its worker; the slot it left may be overwritten only after this (a volatile store: nothing later is
     * seen before it).
     */
    public void moved(int reference, int id, int slot) {
        RESTING.setVolatile(resting, reference, changed(resting[reference], id << SLOT_BITS | slot));
    }

    /**
     * The registered entry of {@code reference}, last hit at {@code lastHitMillis}, stops resting on it (it is
     * removed or replaced, or its cache is closed): its hit becomes the direction's last-seen time when later, and
     * only then does the direction lose its registered entry. Its worker; the entry's slot may be overwritten only
     * after this.
     */
    public void leave(int reference, int lastHitMillis) {
        seenAtLeast(reference, lastHitMillis);
        RESTING.setVolatile(resting, reference, changed(resting[reference], 0));
    }

    /** Raises the last-seen time of {@code reference} to {@code millis} (wrap-safe), never lowers it. */
    private void seenAtLeast(int reference, int millis) {
        int last;
        do {
            last = (int) SEEN.getVolatile(seen, reference);
            if (millis - last <= 0) {
                return;
            }
        } while (!SEEN.compareAndSet(seen, reference, last, millis));
    }

    /**
     * The last hit of the registered entry of {@code reference}, or {@link RestingEntries#NONE}; any thread. The
     * hit counts only when it was read while the resting value stayed the same: one that changed meanwhile is read
     * again.
     */
    private long restingHit(int reference) {
        for (;;) {
            long value = (long) RESTING.getAcquire(resting, reference);
            int token = (int) value;
            if (token == 0) {
                return RestingEntries.NONE;
            }
            RestingEntries cache = caches.get(token >>> SLOT_BITS);
            long hit = cache == null ? RestingEntries.NONE : cache.lastHit(token & (RESTING_SLOTS - 1), reference);
            VarHandle.loadLoadFence(); // the entry was read before the value is read again
            if ((long) RESTING.getAcquire(resting, reference) == value) {
                return hit;
            }
        }
    }

    /** The state ({@link #SYN_SENT} .. {@link #ACTIVE}) of the connection {@code reference}, as it is now. */
    public int state(int reference) {
        int slot = reference >>> 1;
        Stripe s = stripes[slot / (stripeMask + 1)];
        synchronized (s) {
            return (int) (s.entries[(slot - s.firstSlot) * WORDS + 5] >>> 56);
        }
    }

    /**
     * Counts a packet of {@code length} bytes for the connection direction {@code reference}: the fast path's
     * share of a logged connection's counts (the slow path counts in {@link #find}). No lock, but atomic adds: one
     * direction's packets can reach two workers at once (steering hashes fragments and ICMP without the ports the
     * connection's other packets are hashed with, and an ICMP connection spans every echo between two addresses),
     * and plain increments from two cores lose counts.
     */
    public void count(int reference, int length) {
        COUNT.getAndAdd(counts, reference * 2, 1L);
        COUNT.getAndAdd(counts, reference * 2 + 1, (long) length);
    }

    /**
     * Retires the timed-out connections among the next {@code budget} slots (continuing where the last sweep, of
     * any worker, stopped), writing the TERM line of each whose rule is logged; returns the connections retired.
     * Locks one stripe at a time for at most {@link #SWEEP_SLICE} slots. A stripe without connections is passed
     * without reading its entries: an idle worker sweeps an empty table at no more cost than its stripe counts, not
     * the half megabyte of entries that half a second's budget spans.
     */
    public int sweep(int nowMillis, int budget, RuleSet rules, PacketLogWriter log) {
        if (budget <= 0) {
            return 0; // within the same millisecond: not even the shared cursor is touched
        }
        int retired = 0;
        int perStripe = stripeMask + 1;
        int slot = sweepCursor.getAndAdd(Math.min(budget, capacity)) & (capacity - 1);
        for (int left = Math.min(budget, capacity); left > 0;) {
            Stripe s = stripes[slot / perStripe];
            int local = slot & stripeMask;
            int n;
            synchronized (s) {
                if (s.live == 0) {
                    // no entry holds a connection, timed out or not: nothing to retire up to the stripe's end
                    n = Math.min(left, perStripe - local);
                } else {
                    n = Math.min(Math.min(left, SWEEP_SLICE), perStripe - local);
                    retired += sweep(s, local, n, nowMillis, rules, log);
                }
            }
            left -= n;
            slot = (slot + n) & (capacity - 1);
        }
        return retired;
    }

    /** Retires the timed-out connections in slots {@code [local, local + n)} of {@code s}; under its lock. */
    private int sweep(Stripe s, int local, int n, int nowMillis, RuleSet rules, PacketLogWriter log) {
        int retired = 0;
        long[] e = s.entries;
        for (int i = 0; i < n; i++) {
            int base = (local + i) * WORDS;
            if ((e[base + 5] >>> 56) != 0 && !alive(s, base, nowMillis)) {
                endedIfLogged(s, base, PacketLogWriter.TIMEOUT, nowMillis, rules, log);
                // only the retirement changes the stripe: lookups without the monitor go on through the rest
                s.changing();
                forget(s, base, nowMillis);
                s.changed();
                retired++;
            }
        }
        return retired;
    }

    /** The TERM line of a connection that ends for {@code reason}, unless it had closed or its rule is not logged. */
    private void endedIfLogged(Stripe s, int base, int reason, int nowMillis, RuleSet rules, PacketLogWriter log) {
        long word = s.entries[base + 5];
        if ((word >>> 56) != CLOSED && rules.logsId((int) word)) {
            ended(s, base, reason, nowMillis, log);
        }
    }

    /** Writes the TERM line of the connection at {@code base}, seen from its initiator. */
    private void ended(Stripe s, int base, int reason, int nowMillis, PacketLogWriter log) {
        long[] e = s.entries;
        boolean initiatorIsA = ((e[base + 5] >>> 48) & 1) == 1;
        long ports = e[base + 4];
        int aPort = (int) (ports >>> 48);
        int bPort = (int) (ports >>> 32) & 0xFFFF;
        int from = initiatorIsA ? 0 : 2;
        int to = initiatorIsA ? 2 : 0;
        int out = reference(s, base, initiatorIsA) * 2;
        int in = reference(s, base, !initiatorIsA) * 2;
        int start = reference(s, base, true);
        // another worker may be counting either direction: opaque reads, each its latest value or a later one
        log.ended(reason, (int) e[base + 5], (int) (e[base + 7] >>> 32), (int) e[base + 7], e[base + from],
                e[base + from + 1], e[base + to], e[base + to + 1], initiatorIsA ? aPort : bPort,
                initiatorIsA ? bPort : aPort, (int) (ports >>> 24) & 0xFF, (int) (ports >>> 16) & 0xFF,
                (long) COUNT.getOpaque(counts, out), (long) COUNT.getOpaque(counts, in) - replyStart[start],
                (long) COUNT.getOpaque(counts, out + 1), (long) COUNT.getOpaque(counts, in + 1) - replyStart[start + 1],
                nowMillis);
    }

    /** Packets and bytes {@link #count} counted for the direction {@code reference} (tests). */
    long[] counted(int reference) {
        return new long[] {(long) COUNT.getVolatile(counts, reference * 2),
            (long) COUNT.getVolatile(counts, reference * 2 + 1)};
    }

    /** The name of a connection state ({@link #SYN_SENT} .. {@link #ACTIVE}). */
    public static String stateName(int state) {
        return STATE_NAMES[state];
    }

    /** The state named {@code name} ({@link #stateName}), or -1. */
    public static int state(String name) {
        for (int i = 1; i < STATE_NAMES.length; i++) {
            if (STATE_NAMES[i].equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The live connections {@code filter} selects, in slot order; control path (allocates), one stripe locked at a
     * time, so the list is not one atomic image of a table that packets keep changing.
     */
    public List<ConnectionEntry> list(ConnectionFilter filter, int nowMillis) {
        List<ConnectionEntry> list = new ArrayList<>();
        for (Stripe s : stripes) {
            synchronized (s) {
                long[] e = s.entries;
                for (int base = 0; base < e.length; base += WORDS) {
                    if (selected(s, base, filter, nowMillis)) {
                        list.add(entry(s, base, nowMillis));
                    }
                }
            }
        }
        return list;
    }

    /**
     * Forgets the live connections {@code filter} selects, as {@code conntrack -D} does, each with a TERM line
     * (CLEARED, its counts so far) into {@code log} when its rule is logged; returns their slots (ascending), whose
     * flow-cache entries the caller must drop. Their next packets meet the rules like any packet without a
     * connection. Control path, one stripe locked at a time.
     */
    public int[] remove(ConnectionFilter filter, int nowMillis, RuleSet rules, PacketLogWriter log) {
        int[] removed = new int[16];
        int n = 0;
        for (Stripe s : stripes) {
            synchronized (s) {
                s.changing();
                try {
                    long[] e = s.entries;
                    for (int base = 0; base < e.length; base += WORDS) {
                        if (selected(s, base, filter, nowMillis)) {
                            endedIfLogged(s, base, PacketLogWriter.CLEARED, nowMillis, rules, log);
                            forget(s, base, nowMillis);
                            if (n == removed.length) {
                                removed = Arrays.copyOf(removed, n * 2);
                            }
                            removed[n++] = s.firstSlot + base / WORDS;
                        }
                    }
                } finally {
                    s.changed();
                }
            }
        }
        return Arrays.copyOf(removed, n);
    }

    /** Slots and live connections, per state; control path, one stripe locked at a time. */
    public ConnectionTableStats stats(int nowMillis) {
        long[] perState = new long[STATE_NAMES.length];
        long live = 0;
        for (Stripe s : stripes) {
            synchronized (s) {
                long[] e = s.entries;
                for (int base = 0; base < e.length; base += WORDS) {
                    if (e[base + 4] != 0 && alive(s, base, nowMillis)) {
                        perState[(int) (e[base + 5] >>> 56)]++;
                        live++;
                    }
                }
            }
        }
        Map<String, Long> states = new LinkedHashMap<>();
        for (int i = 1; i < STATE_NAMES.length; i++) {
            states.put(STATE_NAMES[i], perState[i]);
        }
        return new ConnectionTableStats(capacity, live, Map.copyOf(states));
    }

    private boolean selected(Stripe s, int base, ConnectionFilter filter, int nowMillis) {
        long[] e = s.entries;
        if (e[base + 4] == 0 || !alive(s, base, nowMillis)) {
            return false;
        }
        long ports = e[base + 4];
        return filter.matches(e[base], e[base + 1], (int) (ports >>> 48), e[base + 2], e[base + 3],
                (int) (ports >>> 32) & 0xFFFF, (int) (ports >>> 24) & 0xFF, (int) (ports >>> 16) & 0xFF,
                (int) (e[base + 5] >>> 56));
    }

    private ConnectionEntry entry(Stripe s, int base, int nowMillis) {
        long[] e = s.entries;
        long ports = e[base + 4];
        int version = (int) (ports >>> 16) & 0xFF;
        boolean initiatorIsA = ((e[base + 5] >>> 48) & 1) == 1;
        int from = initiatorIsA ? 0 : 2;
        int to = initiatorIsA ? 2 : 0;
        int aPort = (int) (ports >>> 48);
        int bPort = (int) (ports >>> 32) & 0xFFFF;
        int state = (int) (e[base + 5] >>> 56);
        int last = lastSeenOrHit(s, base);
        return new ConnectionEntry((int) (ports >>> 24) & 0xFF, version,
                ConnectionEntry.address(version, e[base + from], e[base + from + 1]), initiatorIsA ? aPort : bPort,
                ConnectionEntry.address(version, e[base + to], e[base + to + 1]), initiatorIsA ? bPort : aPort,
                state, (int) e[base + 5], (int) (e[base + 7] >>> 32), (int) e[base + 7], nowMillis - last,
                last + timeoutMillis(state) - nowMillis);
    }

    /** Live connections (approximate: expired entries count until their slot is reused). */
    public long size() {
        long n = 0;
        for (Stripe s : stripes) {
            synchronized (s) {
                n += s.live;
            }
        }
        return n;
    }

    /** The live entry of the connection (given as the packet's addresses and its direction), or -1. */
    private int probe(Stripe s, int hash, boolean srcIsA, long srcHi, long srcLo, long dstHi, long dstLo, long ports,
            int nowMillis) {
        long aHi = srcIsA ? srcHi : dstHi;
        long aLo = srcIsA ? srcLo : dstLo;
        long bHi = srcIsA ? dstHi : srcHi;
        long bLo = srcIsA ? dstLo : srcLo;
        long[] e = s.entries;
        int slot = hash & stripeMask;
        for (int i = 0; i < MAX_PROBES; i++) {
            int base = slot * WORDS;
            if (e[base + 4] == 0) {
                return -1;
            }
            if (e[base + 4] == ports && e[base] == aHi && e[base + 1] == aLo && e[base + 2] == bHi
                    && e[base + 3] == bLo) {
                return alive(s, base, nowMillis) ? base : -1;
            }
            slot = (slot + 1) & stripeMask;
        }
        return -1;
    }

    /** Whether the connection at {@code base} has not been idle for its state's timeout (removed ones are not). */
    private boolean alive(Stripe s, int base, int nowMillis) {
        long[] e = s.entries;
        int state = (int) (e[base + 5] >>> 56);
        if (state == 0) {
            return false;
        }
        int timeout = timeoutMillis(state);
        // the table's own times mostly suffice: only a connection they call timed out asks its resting entries
        return lastSeen(s, base) + timeout - nowMillis > 0 || lastSeenOrHit(s, base) + timeout - nowMillis > 0;
    }

    /**
     * The latest of the connection's last-seen times and its registered entries' last hits. The entries are read
     * first: one that stops resting on the connection folds its hit into {@code seen} before it lets go, so the
     * times read after them hold that hit. What they tell is folded into {@code seen} too (a hit is a time the
     * connection was seen, whoever writes it down), so the table answers from its own times again until a timeout
     * later.
     */
    private int lastSeenOrHit(Stripe s, int base) {
        int reference = reference(s, base, true);
        long hitA = restingHit(reference);
        long hitB = restingHit(reference + 1);
        if (hitA != RestingEntries.NONE) {
            seenAtLeast(reference, (int) hitA);
        }
        if (hitB != RestingEntries.NONE) {
            seenAtLeast(reference + 1, (int) hitB);
        }
        return lastSeen(s, base);
    }

    /**
     * The latest of the connection's last-seen times: the slow path's and each direction's fast path's. Without
     * branches (the later of two times on the wrapping clock is the earlier plus their difference, if positive):
     * under traffic one side always won, and the first idle sweep that saw the other trapped the compiled code
     * and swept on in the interpreter, most of what an idle worker cost right after its traffic stopped.
     */
    private int lastSeen(Stripe s, int base) {
        int last = (int) (s.entries[base + 6] >>> 32);
        int reference = reference(s, base, true);
        int seenA = (int) SEEN.getOpaque(seen, reference);
        int seenB = (int) SEEN.getOpaque(seen, reference + 1);
        last += Math.max(seenA - last, 0);
        return last + Math.max(seenB - last, 0);
    }

    /** Re-checks the connection at {@code base} as its initiator's packet; returns the matching rule or -1. */
    private static int recheck(long[] e, int base, boolean initiatorIsA, RuleSet rules) {
        long ports = e[base + 4];
        int aPort = (int) (ports >>> 48);
        int bPort = (int) (ports >>> 32) & 0xFFFF;
        int inPort = (int) (e[base + 7] >>> 32);
        int outPort = (int) e[base + 7];
        int proto = (int) (ports >>> 24) & 0xFF;
        int version = (int) (ports >>> 16) & 0xFF;
        int a = initiatorIsA ? 0 : 2;
        int b = initiatorIsA ? 2 : 0;
        long l4 = FlowKey.l4Word(initiatorIsA ? aPort : bPort, initiatorIsA ? bPort : aPort, proto, version, inPort);
        return rules.match(e[base + a], e[base + a + 1], e[base + b], e[base + b + 1], l4, outPort);
    }

    /** Marks the connection dead; its slot stays in the probe chain (later entries stay reachable) until reused. */
    private static void forget(Stripe s, int base, int nowMillis) {
        s.entries[base + 5] = 0;
        s.entries[base + 6] = (long) nowMillis << 32;
        s.live--;
    }

    private int freeSlot(Stripe s, int hash, int nowMillis, RuleSet rules, PacketLogWriter log) {
        long[] e = s.entries;
        int slot = hash & stripeMask;
        for (int i = 0; i < MAX_PROBES; i++) {
            int base = slot * WORDS;
            if (e[base + 4] == 0) {
                return base;
            }
            if (!alive(s, base, nowMillis)) {
                if ((e[base + 5] >>> 56) != 0) {
                    endedIfLogged(s, base, PacketLogWriter.TIMEOUT, nowMillis, rules, log);
                    s.live--; // an idle-expired connection; removed ones were already uncounted
                }
                return base;
            }
            slot = (slot + 1) & stripeMask;
        }
        return -1;
    }

    /** The reference of the connection at {@code base} for the direction whose source is end a (or b). */
    private static int reference(Stripe s, int base, boolean fromA) {
        return ((s.firstSlot + base / WORDS) << 1) | (fromA ? 0 : 1);
    }

    private static boolean srcIsA(long srcHi, long srcLo, long dstHi, long dstLo, long l4) {
        if (srcHi != dstHi) {
            return Long.compareUnsigned(srcHi, dstHi) < 0;
        }
        if (srcLo != dstLo) {
            return Long.compareUnsigned(srcLo, dstLo) < 0;
        }
        return FlowKey.srcPort(l4) <= FlowKey.dstPort(l4);
    }

    private static long portsWord(long l4, boolean srcIsA) {
        int proto = FlowKey.proto(l4);
        int a = FlowKey.srcPort(l4);
        int b = FlowKey.dstPort(l4);
        if (proto == FlowKey.PROTO_ICMP || proto == FlowKey.PROTO_ICMPV6) {
            a = 0; // ICMP type differs by direction (echo / reply): track by addresses
            b = 0;
        } else if (!srcIsA) {
            int t = a;
            a = b;
            b = t;
        }
        return ((long) a << 48) | ((long) b << 32) | ((long) proto << 24) | ((long) FlowKey.ipVersion(l4) << 16);
    }

    /** The hash of the connection of a packet from src to dst, whichever end is a. */
    private static int hash(long srcHi, long srcLo, long dstHi, long dstLo, boolean srcIsA, long ports) {
        return srcIsA ? hash(srcHi, srcLo, dstHi, dstLo, ports) : hash(dstHi, dstLo, srcHi, srcLo, ports);
    }

    static int hash(long aHi, long aLo, long bHi, long bLo, long ports) {
        long h = (aHi * 0x9E3779B97F4A7C15L) ^ aLo;
        h = (h * 0xBF58476D1CE4E5B9L) ^ bHi;
        h = (h * 0x94D049BB133111EBL) ^ bLo;
        h = (h * 0x9E3779B97F4A7C15L) ^ ports;
        // a product only carries bits upwards: without the finalizer the ports (bits 32..63) never reached the
        // slot bits and flows differing only in ports shared one probe chain
        return (int) (FlowKey.mix(h) >>> 32);
    }

    private static int firstState(int proto, int tcpFlags) {
        if (proto != FlowKey.PROTO_TCP) {
            return ACTIVE;
        }
        if ((tcpFlags & FlowKey.TCP_RST) != 0) {
            return CLOSED;
        }
        if ((tcpFlags & FlowKey.TCP_FIN) != 0) {
            return FIN_WAIT;
        }
        return (tcpFlags & FlowKey.TCP_SYN) != 0 ? SYN_SENT : ESTABLISHED;
    }

    /**
     * The next state; only SYN, FIN and RST move it (the packets the flow cache never serves), so that the fast
     * path, which does not call here, never skips a transition. The handshake completes with the responder's
     * SYN+ACK.
     */
    private static int nextState(int state, int proto, int tcpFlags, boolean fromInitiator) {
        if (proto != FlowKey.PROTO_TCP) {
            return ACTIVE;
        }
        if ((tcpFlags & FlowKey.TCP_RST) != 0) {
            return CLOSED;
        }
        if ((tcpFlags & FlowKey.TCP_FIN) != 0) {
            return state == FIN_WAIT ? CLOSED : FIN_WAIT;
        }
        if (state == SYN_SENT && (tcpFlags & FlowKey.TCP_SYN) != 0 && (tcpFlags & FlowKey.TCP_ACK) != 0
                && !fromInitiator) {
            return ESTABLISHED;
        }
        return state;
    }

    static int timeoutMillis(int state) {
        return switch (state) {
            case SYN_SENT -> 30_000;
            case ESTABLISHED -> 3_600_000;
            case FIN_WAIT -> 45_000;
            case CLOSED -> SHORTEST_TIMEOUT_MILLIS;
            default -> 60_000;
        };
    }
}
