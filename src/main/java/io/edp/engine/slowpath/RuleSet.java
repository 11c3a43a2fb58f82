package io.edp.engine.slowpath;

import io.edp.engine.packet.FlowKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;

/**
 * Firewall rules compiled for first-match lookup by tuple-space search, as Open vSwitch's classifier does: rules that
 * test the same fields with the same prefix lengths share a tuple, and each tuple is a hash table on those fields, so
 * a first packet costs one probe per tuple rather than one test per rule. A probe's candidates come in list order and
 * are checked against the whole rule (port ranges, appliedTo, hash collisions), so the answer is exactly the first
 * matching rule in list order.
 *
 * <p>The lookup is staged, as Open vSwitch's is, cheapest test first, on bitmaps of the tuples (a bit per tuple, in
 * the order of their first rule): the packet's IP version and protocol pick the tuples whose rules can have them
 * (tuples are split by exact version and protocol), its destination port the tuples with a rule whose port range
 * reaches it, and prefix tracking ({@link PrefixClasses}) the tuples with a rule whose source prefix holds the
 * packet's source. The remaining tuples are visited in order and skipped when no rule's destination prefix can hold
 * the packet's destination; the lookup ends at the first tuple whose first rule comes after the best match found.
 * Tuples are also split by band of rules ({@link #FIRST_BAND}), so that a match among the first rules ends it early,
 * and the first band has prefix tracking of its own ({@link Space}): a match there never reads the larger tables.
 */
public final class RuleSet {

    private static final int PROTOCOL_EXACT = 1;
    private static final int VERSION_EXACT = 1 << 1;
    private static final int SOURCE_PORT_EXACT = 1 << 2;
    private static final int DESTINATION_PORT_EXACT = 1 << 3;
    /**
     * The rules are cut, in list order, into bands of growing size (64 rules, 960, then fifteen times the rules before
     * each), and tuples are split by band: a band's tuples come before the next band's, so a match among the first
     * rules ends the lookup before any later band's tuple, however many rules share their shapes.
     */
    private static final int FIRST_BAND = 64;
    /** The port stage's granularity: a TCP or UDP packet's destination port picks one of 1,024 rows of 64 ports. */
    private static final int PORT_ROW_SHIFT = 6;

    // a rule as the lookup reads it, in one record of longs: a candidate's checks read one or two cache lines
    private static final int RECORD = 8;
    private static final int HASH = 0; // the rule's hash in its tuple: most other buckets' rules fail on it alone
    private static final int SRC_HI = 1; // the rule's prefixes, masked; the tuple has the masks
    private static final int SRC_LO = 2;
    private static final int DST_HI = 3;
    private static final int DST_LO = 4;
    private static final int PORTS = 5; // source from, to, destination from, to: 16 bits each from the low end
    private static final int NEXT = 6; // the bucket's next rule in list order, -1 at its end
    private static final int SCOPED = 7; // 1 when the rule has an appliedTo set

    private final int[] ids;
    private final long[] records;
    private final long[][] appliedTo;
    private final Verdict[] verdicts;
    private final boolean[] logged;
    /** The ids of the logged rules, sorted: a connection knows its rule by id. */
    private final int[] loggedIds;
    /** Every rule's id, sorted, and its index beside it: {@link #indexOf} without a boxed map. */
    private final int[] sortedIds;
    private final int[] indexBySortedId;

    // the tuples, in the order of their first rule: which fields they hash, with which prefix masks
    private final int tupleCount; // without the padding
    private final int[] tupleFields;
    private final long[] tupleSrcMaskHi;
    private final long[] tupleSrcMaskLo;
    private final long[] tupleDstMaskHi;
    private final long[] tupleDstMaskLo;
    private final int[] tupleFirstRule;
    private final int[] tupleBuckets; // offset of the tuple's buckets in heads
    private final int[] tupleBucketMask;
    private final int[] heads; // first rule of each bucket, -1 when empty
    // the tuples as bits of a bitmap, a tuple's bit at its index: the lookup visits the bits in order
    private final int words;
    /**
     * Each bitmap has a summary, a long whose bit k is set when a word of group k ({@code groupWords} words from
     * word k × groupWords) is not zero: the lookup visits only the groups set in every stage's summary, so the words
     * of tuples no stage lets in cost nothing (one word a group up to 4,096 tuples).
     */
    private final int groupWords;
    /** Per (IP version, protocol), at {@link #stageRows}: the tuples whose version and protocol the packet's can be. */
    private final long[] stageMasks;
    private final int[] stageRows;
    /** The summary of each of {@link #stageMasks}' rows, at its row's offset divided by {@code words}. */
    private final long[] stageSummaries;
    /** Per row of 64 destination ports, the tuples with a rule a TCP or UDP packet to such a port can match. */
    private final long[] portTuples;
    private final long[] portSummaries;
    /** Which of its space's destination prefix classes each tuple's rules use. */
    private final long[] tupleDstClasses;
    /** The first band's rules and tuples, then the rest's: each with prefix tables of its own rules only. */
    private final Space[] spaces;

    /**
     * Prefix tracking over a run of rules and their tuples, whole bitmap words [{@code firstWord}, {@code endWord}):
     * tuples of the first band fill the first words, the later bands' tuples start on a fresh word. The first
     * band's tables hold its 64 rules' prefixes: a lookup that matches there reads a few lines of L1 instead of
     * probing tables of every rule's prefixes, which at 10,000 rules are most of its cost. A first band of too few
     * tuples for tracking to pay shares the whole set's space instead.
     */
    private record Space(int firstRule, int firstWord, int endWord, long groups, PrefixClasses sourcePrefixes,
            PrefixClasses destinationPrefixes, long[] sourceClassTuples, long[] sourceClassSummaries,
            boolean tracksPrefixes, boolean tracksSources) {
    }

    /** A stage row's tuples as a map key: rows with equal tuples share their words in {@link #stageMasks}. */
    private record StageMask(long[] words) {
        @Override
        public boolean equals(Object o) {
            return o instanceof StageMask other && Arrays.equals(words, other.words);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(words);
        }
    }

    public RuleSet(List<FirewallRule> rules) {
        int n = rules.size();
        ids = new int[n];
        records = new long[n * RECORD];
        appliedTo = new long[n][];
        verdicts = new Verdict[n];
        logged = new boolean[n];
        int[] protocols = new int[n];
        int[] versions = new int[n];
        int[] fields = new int[n];
        int[] tupleOf = new int[n];
        Cidr[] sources = new Cidr[n];
        Cidr[] destinations = new Cidr[n];
        var tupleBySignature = new HashMap<Long, Integer>();
        var tupleSizes = new ArrayList<Integer>(); // by tuple index, 0 for the indices that pad a space's words
        for (int i = 0; i < n; i++) {
            while (i == FIRST_BAND && tupleSizes.size() % 64 != 0) {
                tupleSizes.add(0); // the later bands' space starts on a fresh bitmap word
            }
            FirewallRule r = rules.get(i);
            Cidr src = Cidr.parse(r.source(), "firewall rule " + r.id() + " source");
            Cidr dst = Cidr.parse(r.destination(), "firewall rule " + r.id() + " destination");
            if (src.version() != 0 && dst.version() != 0 && src.version() != dst.version()) {
                throw new IllegalArgumentException("firewall rule " + r.id()
                        + ": source and destination mix IPv4 and IPv6");
            }
            sources[i] = src;
            destinations[i] = dst;
            ids[i] = r.id();
            protocols[i] = r.protocol();
            versions[i] = Math.max(src.version(), dst.version());
            fields[i] = fields(r.protocol(), versions[i], r.sourcePorts(), r.destinationPorts());
            int at = i * RECORD;
            records[at + SRC_HI] = src.hi();
            records[at + SRC_LO] = src.lo();
            records[at + DST_HI] = dst.hi();
            records[at + DST_LO] = dst.lo();
            records[at + PORTS] = r.sourcePorts().from() | (long) r.sourcePorts().to() << 16
                    | (long) r.destinationPorts().from() << 32 | (long) r.destinationPorts().to() << 48;
            appliedTo[i] = bitset(r);
            records[at + SCOPED] = appliedTo[i] == null ? 0 : 1;
            verdicts[i] = r.verdict();
            logged[i] = r.log();
            // rules limiting the destination port to a range get tuples apart from those of any port: the port stage
            // can then leave them out
            boolean portRange = limitsDestinationPort(r) && (fields[i] & DESTINATION_PORT_EXACT) == 0;
            long signature = (long) band(i) << 56 | (portRange ? 1L << 48 : 0) | (long) fields[i] << 40
                    | (long) versions[i] << 32 | protocols[i] << 16 | src.length() << 8 | dst.length();
            int tuple = tupleBySignature.computeIfAbsent(signature, key -> tupleSizes.size());
            if (tuple == tupleSizes.size()) {
                tupleSizes.add(0);
            }
            tupleSizes.set(tuple, tupleSizes.get(tuple) + 1);
            tupleOf[i] = tuple;
        }
        tupleCount = tupleBySignature.size();
        int slots = tupleSizes.size(); // the tuples and the padding
        tupleFields = new int[slots];
        tupleSrcMaskHi = new long[slots];
        tupleSrcMaskLo = new long[slots];
        tupleDstMaskHi = new long[slots];
        tupleDstMaskLo = new long[slots];
        tupleFirstRule = new int[slots];
        tupleBuckets = new int[slots];
        tupleBucketMask = new int[slots];
        int bucketTotal = 0;
        for (int t = 0; t < slots; t++) {
            int buckets = Integer.highestOneBit(Math.max(1, tupleSizes.get(t)) * 2 - 1) << 1;
            tupleBuckets[t] = bucketTotal;
            tupleBucketMask[t] = buckets - 1;
            bucketTotal += buckets;
        }
        tupleDstClasses = new long[slots];
        int[] tupleVersions = new int[slots];
        int[] tupleProtocols = new int[slots];
        Arrays.fill(tupleFirstRule, -1); // stays -1 at the padding
        heads = new int[bucketTotal];
        Arrays.fill(heads, -1);
        for (int i = n - 1; i >= 0; i--) { // pushed in reverse, so each bucket lists its rules in list order
            int t = tupleOf[i];
            tupleFields[t] = fields[i];
            tupleSrcMaskHi[t] = Cidr.maskHi(sources[i].length());
            tupleSrcMaskLo[t] = Cidr.maskLo(sources[i].length());
            tupleDstMaskHi[t] = Cidr.maskHi(destinations[i].length());
            tupleDstMaskLo[t] = Cidr.maskLo(destinations[i].length());
            tupleFirstRule[t] = i;
            tupleVersions[t] = versions[i];
            tupleProtocols[t] = protocols[i];
            int at = i * RECORD;
            long ports = records[at + PORTS];
            records[at + HASH] = hash(fields[i], records[at + SRC_HI], records[at + SRC_LO], records[at + DST_HI],
                    records[at + DST_LO], protocols[i], versions[i], (int) ports & 0xFFFF,
                    (int) (ports >>> 32) & 0xFFFF);
            int bucket = tupleBuckets[t] + (int) (records[at + HASH] & tupleBucketMask[t]);
            records[at + NEXT] = heads[bucket];
            heads[bucket] = i;
        }
        words = Math.max(1, (slots + 63) >>> 6); // one word of zeros without rules
        groupWords = (words + 63) >>> 6;
        Space first = n > FIRST_BAND
                ? space(0, FIRST_BAND, 0, tupleOf[FIRST_BAND] >>> 6, sources, destinations, tupleOf) : null;
        // a first band too small to track its own prefixes is better filtered by the whole set's
        spaces = first != null && first.tracksPrefixes()
                ? new Space[] {first, space(FIRST_BAND, n, first.endWord(), words, sources, destinations, tupleOf)}
                : new Space[] {space(0, n, 0, words, sources, destinations, tupleOf)};
        portTuples = new long[(65536 >>> PORT_ROW_SHIFT) * words];
        var anyPort = new boolean[tupleFirstRule.length];
        for (int i = 0; i < n; i++) {
            int t = tupleOf[i];
            FirewallRule r = rules.get(i);
            if (!limitsDestinationPort(r)) {
                anyPort[t] = true;
                continue;
            }
            for (int row = r.destinationPorts().from() >>> PORT_ROW_SHIFT;
                    row <= r.destinationPorts().to() >>> PORT_ROW_SHIFT && !anyPort[t]; row++) {
                portTuples[row * words + (t >>> 6)] |= 1L << t;
            }
        }
        for (int t = 0; t < tupleFirstRule.length; t++) {
            for (int row = 0; row < 65536 >>> PORT_ROW_SHIFT && anyPort[t]; row++) {
                portTuples[row * words + (t >>> 6)] |= 1L << t;
            }
        }
        stageRows = new int[3 * 256];
        // a row differs from its version's protocol-0 row only at a protocol some tuple names: the protocols no tuple
        // names take that row's offset (an agent recompiles its rules on every change of them: 768 rows each time)
        var named = new boolean[256];
        for (int t = 0; t < tupleFirstRule.length; t++) {
            named[tupleProtocols[t]] |= tupleFirstRule[t] >= 0 && tupleProtocols[t] != 0;
        }
        var rowByMask = new HashMap<StageMask, Integer>();
        long[] masks = new long[0];
        for (int row = 0, unnamedRow = -1; row < stageRows.length; row++) {
            int version = row < 256 ? 4 : row < 512 ? 6 : -1; // -1: neither family, only version-free rules match
            int protocol = row & 0xFF;
            unnamedRow = protocol == 0 ? -1 : unnamedRow;
            if (!named[protocol] && unnamedRow >= 0) {
                stageRows[row] = stageRows[unnamedRow];
                continue;
            }
            long[] mask = new long[words];
            for (int t = 0; t < tupleFirstRule.length; t++) {
                if (tupleFirstRule[t] >= 0 && (tupleVersions[t] == 0 || tupleVersions[t] == version)
                        && (tupleProtocols[t] == 0 || tupleProtocols[t] == protocol)) {
                    mask[t >>> 6] |= 1L << t;
                }
            }
            Integer at = rowByMask.putIfAbsent(new StageMask(mask), masks.length);
            if (at == null) {
                at = masks.length;
                masks = Arrays.copyOf(masks, masks.length + words);
                System.arraycopy(mask, 0, masks, at, words);
            }
            stageRows[row] = at;
            unnamedRow = named[protocol] ? unnamedRow : row;
        }
        stageMasks = masks;
        stageSummaries = summaries(stageMasks, 0, words);
        portSummaries = summaries(portTuples, 0, words);
        loggedIds = rules.stream().filter(FirewallRule::log).mapToInt(FirewallRule::id).sorted().toArray();
        long[] idAndIndex = new long[n];
        for (int i = 0; i < n; i++) {
            idAndIndex[i] = (long) ids[i] << 32 | i;
        }
        Arrays.sort(idAndIndex); // ids are positive: the long order is the id order, then list order
        sortedIds = new int[n];
        indexBySortedId = new int[n];
        for (int i = 0; i < n; i++) {
            sortedIds[i] = (int) (idAndIndex[i] >>> 32);
            indexBySortedId[i] = (int) idAndIndex[i];
        }
    }

    /** The prefix tracking of rules [{@code from}, {@code to}), whose tuples fill words [firstWord, endWord). */
    private Space space(int from, int to, int firstWord, int endWord, Cidr[] sources, Cidr[] destinations,
            int[] tupleOf) {
        var sourcePrefixes = new PrefixClasses(Arrays.copyOfRange(sources, from, to));
        var destinationPrefixes = new PrefixClasses(Arrays.copyOfRange(destinations, from, to));
        int spaceWords = endWord - firstWord;
        var tupleSrcClasses = new long[spaceWords * 64];
        Arrays.fill(tupleDstClasses, firstWord * 64, Math.min(endWord * 64, tupleDstClasses.length), 0);
        for (int i = from; i < to; i++) {
            tupleSrcClasses[tupleOf[i] - firstWord * 64] |= sourcePrefixes.ruleBits(i - from);
            tupleDstClasses[tupleOf[i]] |= destinationPrefixes.ruleBits(i - from);
        }
        // tracking costs a probe per prefix class: it pays only where it can save more tuple probes than that
        int tuples = (int) Arrays.stream(tupleSrcClasses).filter(classes -> classes != 0).count();
        boolean tracksPrefixes = (sourcePrefixes.tracked() || destinationPrefixes.tracked())
                && tuples > sourcePrefixes.probes() + destinationPrefixes.probes();
        var sourceClassTuples = new long[sourcePrefixes.classes() * spaceWords];
        for (int t = 0; t < tupleSrcClasses.length && sourcePrefixes.tracked(); t++) {
            for (long bits = tupleSrcClasses[t]; bits != 0; bits &= bits - 1) {
                sourceClassTuples[Long.numberOfTrailingZeros(bits) * spaceWords + (t >>> 6)] |= 1L << t;
            }
        }
        long groups = 0;
        for (int w = firstWord; w < endWord; w++) {
            groups |= 1L << w / groupWords;
        }
        return new Space(from, firstWord, endWord, groups, sourcePrefixes, destinationPrefixes, sourceClassTuples,
                summaries(sourceClassTuples, firstWord, spaceWords), tracksPrefixes,
                tracksPrefixes && sourcePrefixes.tracked());
    }

    /** The summaries of {@code bitmaps}' rows of {@code rowWords} words, the first being word {@code firstWord}. */
    private long[] summaries(long[] bitmaps, int firstWord, int rowWords) {
        long[] summaries = new long[bitmaps.length / rowWords];
        for (int at = 0; at < bitmaps.length; at++) {
            if (bitmaps[at] != 0) {
                summaries[at / rowWords] |= 1L << (firstWord + at % rowWords) / groupWords;
            }
        }
        return summaries;
    }

    /** The band of rule {@code i}: 0 for the first {@value #FIRST_BAND} rules, then one more per sixteenfold. */
    private static int band(int i) {
        int band = 0;
        for (int end = FIRST_BAND; i >= end; end *= 16) {
            band++;
        }
        return band;
    }

    /** Whether the rule can match only TCP and UDP packets of some destination ports. */
    private static boolean limitsDestinationPort(FirewallRule r) {
        return (r.protocol() == 0 || r.protocol() == FlowKey.PROTO_TCP || r.protocol() == FlowKey.PROTO_UDP)
                && !r.destinationPorts().equals(PortRange.ANY);
    }

    /**
     * The fields a rule's tuple hashes exactly. A port is hashed only when it is one port of a TCP or UDP rule: every
     * packet such a rule can match then carries ports; other port ranges are checked per candidate.
     */
    private static int fields(int protocol, int version, PortRange sourcePorts, PortRange destinationPorts) {
        boolean ports = protocol == FlowKey.PROTO_TCP || protocol == FlowKey.PROTO_UDP;
        return (protocol != 0 ? PROTOCOL_EXACT : 0) | (version != 0 ? VERSION_EXACT : 0)
                | (ports && sourcePorts.from() == sourcePorts.to() ? SOURCE_PORT_EXACT : 0)
                | (ports && destinationPorts.from() == destinationPorts.to() ? DESTINATION_PORT_EXACT : 0);
    }

    /** The hash of a tuple's fields; addresses come masked with the tuple's prefix lengths. */
    private static long hash(int fields, long srcHi, long srcLo, long dstHi, long dstLo, int protocol, int version,
            int srcPort, int dstPort) {
        long h = srcHi * 0x9E3779B97F4A7C15L + srcLo;
        h = h * 0x9E3779B97F4A7C15L + dstHi;
        h = h * 0x9E3779B97F4A7C15L + dstLo;
        h = h * 0x9E3779B97F4A7C15L + ((fields & PROTOCOL_EXACT) != 0 ? protocol : 0)
                + ((fields & VERSION_EXACT) != 0 ? (long) version << 8 : 0)
                + ((fields & SOURCE_PORT_EXACT) != 0 ? (long) srcPort << 16 : 0)
                + ((fields & DESTINATION_PORT_EXACT) != 0 ? (long) dstPort << 32 : 0);
        return FlowKey.mix(h);
    }

    private static long[] bitset(FirewallRule r) {
        if (r.appliedTo().isEmpty()) {
            return null;
        }
        int max = 0;
        for (int port : r.appliedTo()) {
            if (port < 0 || port > 0xFFFF) {
                throw new IllegalArgumentException("firewall rule " + r.id() + " appliedTo: bad port " + port);
            }
            max = Math.max(max, port);
        }
        long[] bits = new long[max / 64 + 1];
        for (int port : r.appliedTo()) {
            bits[port >>> 6] |= 1L << port;
        }
        return bits;
    }

    public int size() {
        return ids.length;
    }

    /** The index of the first rule matching the packet, or -1. {@code outPort} is -1 when not yet known. */
    public int match(long srcAddrHi, long srcAddrLo, long dstAddrHi, long dstAddrLo, long l4, int outPort) {
        int best = ids.length;
        for (Space space : spaces) {
            if (space.firstRule() >= best) {
                break;
            }
            best = match(space, srcAddrHi, srcAddrLo, dstAddrHi, dstAddrLo, l4, outPort, best);
        }
        return best == ids.length ? -1 : best;
    }

    /** The first rule of the space matching the packet, or {@code best} if none comes before it. */
    private int match(Space space, long srcAddrHi, long srcAddrLo, long dstAddrHi, long dstAddrLo, long l4,
            int outPort, int best) {
        int proto = FlowKey.proto(l4);
        int version = FlowKey.ipVersion(l4);
        int sport = FlowKey.srcPort(l4);
        int dport = FlowKey.dstPort(l4);
        boolean tracksSources = space.tracksSources();
        PrefixClasses destinationPrefixes = space.destinationPrefixes();
        long srcClasses = tracksSources ? space.sourcePrefixes().matching(srcAddrHi, srcAddrLo, version) : 0;
        // the destination's classes are looked up when a tuple first needs more than its zero-length ones: early
        // termination may save that lookup
        long dstClasses = space.tracksPrefixes() ? destinationPrefixes.anyLength() : -1L;
        boolean dstKnown = !space.tracksPrefixes();
        int stage = stageRows[(version == 4 ? 0 : version == 6 ? 256 : 512) + proto];
        boolean ports = proto == FlowKey.PROTO_TCP || proto == FlowKey.PROTO_UDP;
        int portRow = (dport >>> PORT_ROW_SHIFT) * words;
        long[] sourceClassTuples = space.sourceClassTuples();
        int spaceWords = space.endWord() - space.firstWord();
        long groups = space.groups() & stageSummaries[stage / words];
        if (ports) {
            groups &= portSummaries[dport >>> PORT_ROW_SHIFT];
        }
        if (tracksSources) {
            long sourceGroups = 0;
            for (long bits = srcClasses; bits != 0; bits &= bits - 1) {
                sourceGroups |= space.sourceClassSummaries()[Long.numberOfTrailingZeros(bits)];
            }
            groups &= sourceGroups;
        }
        for (; groups != 0; groups &= groups - 1) {
            int group = Long.numberOfTrailingZeros(groups) * groupWords;
            for (int w = Math.max(group, space.firstWord()), end = Math.min(group + groupWords, space.endWord());
                    w < end; w++) {
                long candidates = stageMasks[stage + w];
                if (ports) {
                    candidates &= portTuples[portRow + w];
                }
                if (tracksSources) {
                    long sourceTuples = 0;
                    for (long bits = srcClasses; bits != 0; bits &= bits - 1) {
                        sourceTuples |= sourceClassTuples[Long.numberOfTrailingZeros(bits) * spaceWords + w
                                - space.firstWord()];
                    }
                    candidates &= sourceTuples; // the tuples with a rule whose source prefix holds the packet's
                }
                for (; candidates != 0; candidates &= candidates - 1) {
                    int t = w << 6 | Long.numberOfTrailingZeros(candidates);
                    if (tupleFirstRule[t] >= best) {
                        return best; // tuples come in the order of their first rule: none of the rest can do better
                    }
                    if ((tupleDstClasses[t] & dstClasses) == 0 && !dstKnown) {
                        dstClasses = destinationPrefixes.matching(dstAddrHi, dstAddrLo, version);
                        dstKnown = true;
                    }
                    if ((tupleDstClasses[t] & dstClasses) == 0) {
                        continue; // no rule of the tuple has a destination prefix the packet's falls in
                    }
                    long srcHi = srcAddrHi & tupleSrcMaskHi[t];
                    long srcLo = srcAddrLo & tupleSrcMaskLo[t];
                    long dstHi = dstAddrHi & tupleDstMaskHi[t];
                    long dstLo = dstAddrLo & tupleDstMaskLo[t];
                    long h = hash(tupleFields[t], srcHi, srcLo, dstHi, dstLo, proto, version, sport, dport);
                    // the stage let in only tuples of the packet's version and protocol: a candidate's own are right
                    for (int i = heads[tupleBuckets[t] + (int) (h & tupleBucketMask[t])]; i >= 0 && i < best;
                            i = (int) records[i * RECORD + NEXT]) {
                        int at = i * RECORD;
                        if (records[at + HASH] == h && records[at + SRC_HI] == srcHi && records[at + SRC_LO] == srcLo
                                && records[at + DST_HI] == dstHi && records[at + DST_LO] == dstLo
                                && (!ports || portsHold(records[at + PORTS], sport, dport))
                                && (records[at + SCOPED] == 0 || inScope(appliedTo[i], FlowKey.inPort(l4), outPort))) {
                            best = i;
                        }
                    }
                }
            }
        }
        return best;
    }

    /** Whether a rule's port ranges, packed as in its record, hold the packet's ports. */
    private static boolean portsHold(long ranges, int sport, int dport) {
        return sport >= (int) (ranges & 0xFFFF) && sport <= (int) (ranges >>> 16 & 0xFFFF)
                && dport >= (int) (ranges >>> 32 & 0xFFFF) && dport <= (int) (ranges >>> 48);
    }

    private static boolean inScope(long[] scope, int inPort, int outPort) {
        return contains(scope, inPort) || contains(scope, outPort);
    }

    /** How many hash tables a first packet probes at most. */
    public int tuples() {
        return tupleCount;
    }

    private static boolean contains(long[] bits, int port) {
        return port >= 0 && (port >>> 6) < bits.length && (bits[port >>> 6] & (1L << port)) != 0;
    }

    public int id(int index) {
        return ids[index];
    }

    /** The index of the rule with id {@code ruleId} (the first, should two share it), or -1 (0: no rule). */
    public int indexOf(int ruleId) {
        int at = Arrays.binarySearch(sortedIds, ruleId);
        if (at < 0) {
            return -1;
        }
        while (at > 0 && sortedIds[at - 1] == ruleId) {
            at--;
        }
        return indexBySortedId[at];
    }

    public Verdict verdict(int index) {
        return verdicts[index];
    }

    /** Whether any rule is logged: when none is, the packet log costs nothing. */
    public boolean logs() {
        return loggedIds.length > 0;
    }

    /** Whether the rule at {@code index} is logged. */
    public boolean logs(int index) {
        return logged[index];
    }

    /** Whether the rule with id {@code ruleId} is logged (0, no rule, is not). */
    public boolean logsId(int ruleId) {
        return loggedIds.length > 0 && Arrays.binarySearch(loggedIds, ruleId) >= 0;
    }
}
