package io.edp.engine.nic.loopback;

import static io.edp.engine.packet.NetworkOrder.U16;
import static io.edp.engine.packet.NetworkOrder.U32;
import static io.edp.engine.packet.NetworkOrder.U64;

import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.numa.AddressSpace;
import io.edp.engine.numa.CpuAffinity;
import io.edp.engine.numa.CpuSet;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.Cidr;
import io.edp.engine.slowpath.MacAddress;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Builds frames of a {@link TrafficProfile} on its own thread, a burst at a time in its own staging memory, and
 * puts them on the wire of a {@link LoopbackNic}, which writes each into a buffer its RX queue's worker posted
 * (as a NIC's DMA does). Each frame ends with a 12-byte trailer (flow id, sequence number) that the
 * {@link TrafficSink} checks; the top 16 bits of the sequence number number the run (each generator is a new
 * run), so a sink starts each flow's count afresh when a new run begins. A queue without posted buffers pushes
 * back: frames wait, none are lost or reordered.
 */
public final class TrafficGenerator {

    /** Bytes at the end of every frame: flow id (int) and sequence number (long), native order. */
    public static final int TRAILER_BYTES = 12;
    /** The sequence number's bits above this one are the run's number, the bits below count the flow's frames. */
    public static final int RUN_SHIFT = 48;

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final VarHandle SENT;

    static {
        try {
            SENT = MethodHandles.lookup().findVarHandle(TrafficGenerator.class, "sent", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int TEMPLATE_BYTES = 128;
    private static final int UDP_KIND = 0;
    private static final int TCP_KIND = 1;
    private static final int ICMP_KIND = 2;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    /**
     * Where the generator's own memory is read and written: a constant, so the JIT checks nothing per access (a
     * segment in a field cost a session and bounds check at each of a frame's dozen accesses).
     */
    private static final MemorySegment MEMORY = AddressSpace.WHOLE;
    /**
     * The generator's memory, off the heap (so that no object the worker uses can share a line with what the
     * wire writes at every frame), at these offsets: each frame of the burst's length, the header templates, the
     * staging rooms, then each flow's next sequence number.
     */
    private static final long LENGTHS = 0;
    private static final long TEMPLATES = LENGTHS + NicDriver.MAX_BURST * Integer.BYTES;
    private static final long ROOMS = TEMPLATES + 6 * TEMPLATE_BYTES;
    private static final long SEQUENCES = ROOMS + (long) NicDriver.MAX_BURST * MbufPool.ROOM_STRIDE_BYTES;

    // padding keeps the fields between the two groups, written at every frame, on lines of their own
    private long p01, p02, p03, p04, p05, p06, p07;
    /**
     * The flow the next frame is built for, with what {@link #build} derives from it kept as counters that step
     * with it ({@link #nextFlow}): the divisions that define them (six a frame) were most of the generator's own
     * time, and a generator slower than the worker starves it (docs/benchmarks.md, the nineteenth round).
     */
    private long flow;
    /** {@code flow * 37 % 100} and {@code flow * 61 % 100}: where the flow falls in the profile's mix. */
    private long protocolBucket;
    private long familyBucket;
    private long destination;
    private long source;
    /** The source port's offset ({@code flow % 60,000}) and the destination port's ({@code flow / 60,000}). */
    private long portOffset;
    private long portBlock;
    /** Frames delivered; published with a release store, which (unlike a volatile one) waits for no earlier store. */
    private long sent;
    private long p11, p12, p13, p14, p15, p16, p17;

    private final TrafficProfile profile;
    private final LoopbackNic nic;
    /** Keeps the generator's memory ({@link #LENGTHS}...) while the generator lives; reached at {@link #at}. */
    private final MemorySegment memory;
    private final long at;
    /** This run's number, in place in the sequence number. */
    private final long run = (long) RUNS.incrementAndGet() << RUN_SHIFT;
    private final long srcMac;
    private final long dstMac;
    private final int sourceBase;
    private final int destinationBase;
    private final int[] templateLength = new int[6];
    private final int[] headerLength = new int[6];
    private final int[] templateChecksum = new int[6];
    private volatile boolean stopped;
    private volatile boolean finished;
    private Thread thread;

    TrafficGenerator(TrafficProfile profile, LoopbackNic nic) {
        this.profile = profile;
        this.nic = nic;
        // staging rooms spaced as the pool spaces its rooms, so that a burst's first lines do not all fall into
        // the same two sets of the L1
        this.memory = Arena.ofAuto().allocate(SEQUENCES + (long) profile.flows() * Long.BYTES, 64);
        this.at = memory.address();
        this.srcMac = MacAddress.parse(profile.sourceMac(), "sourceMac");
        this.dstMac = MacAddress.parse(profile.destinationMac(), "destinationMac");
        this.sourceBase = (int) (Cidr.parse(profile.sourceBase(), "sourceBase").hi() >>> 32);
        this.destinationBase = (int) (Cidr.parse(profile.destinationBase(), "destinationBase").hi() >>> 32);
        buildTemplates();
    }

    public TrafficProfile profile() {
        return profile;
    }

    /** Frames handed to the NIC so far. */
    public long sent() {
        return (long) SENT.getAcquire(this);
    }

    /** The id of the generator's thread, whose CPU time is the traffic source's and the wire's (the copy). */
    public long threadId() {
        return thread.threadId();
    }

    /** True once the packet count or duration is reached, or after {@link #stop()}. */
    public boolean finished() {
        return finished;
    }

    /** Stops sending and waits for the generator thread to end. */
    public void stop() {
        stopped = true;
        if (thread != null) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Starts the generator's thread, pinned to {@code cpus} before its first frame unless they are empty. */
    void start(CpuSet cpus) {
        thread = Thread.ofPlatform().name("edp-traffic-" + nic.name()).daemon(true).start(() -> {
            if (!cpus.isEmpty()) {
                CpuAffinity.pinCurrentThread(cpus);
            }
            run();
        });
    }

    /** The IP protocol of flow {@code i} (deterministic, so tests can predict it). */
    public static int protocol(TrafficProfile p, int flow) {
        return protocolOf(p, (int) ((flow * 37L) % 100));
    }

    public static boolean ipv6(TrafficProfile p, int flow) {
        return (int) ((flow * 61L) % 100) < p.ipv6Percent();
    }

    private static int protocolOf(TrafficProfile p, int bucket) {
        return bucket < p.udpPercent() ? FlowKey.PROTO_UDP
                : bucket < p.udpPercent() + p.tcpPercent() ? FlowKey.PROTO_TCP : FlowKey.PROTO_ICMP;
    }

    /** Steps to the next flow (the first after the last), and what {@link #build} derives from it with it. */
    private void nextFlow() {
        if (++flow == profile.flows()) {
            flow = 0;
            protocolBucket = 0;
            familyBucket = 0;
            destination = 0;
            source = 0;
            portOffset = 0;
            portBlock = 0;
            return;
        }
        protocolBucket = protocolBucket >= 63 ? protocolBucket - 63 : protocolBucket + 37;
        familyBucket = familyBucket >= 39 ? familyBucket - 39 : familyBucket + 61;
        destination = destination + 1 == profile.destinations() ? 0 : destination + 1;
        source = profile.sources() == 0 ? flow : source + 1 == profile.sources() ? 0 : source + 1;
        if (++portOffset == 60_000) {
            portOffset = 0;
            portBlock++;
        }
    }

    private void run() {
        long start = System.nanoTime();
        long deadline = profile.duration() == null ? Long.MAX_VALUE : start + profile.duration().toNanos();
        long limit = profile.packets() == 0 ? Long.MAX_VALUE : profile.packets();
        long count = 0;
        int pending = 0;
        int pendingFrom = 0;
        while (!stopped && (count < limit || pending > 0)) {
            if (pending == 0) {
                if (System.nanoTime() >= deadline) {
                    break;
                }
                pace(start, count);
                int n = (int) Math.min(NicDriver.MAX_BURST, limit - count);
                for (int i = 0; i < n; i++) {
                    MEMORY.set(INT, length(i), build(room(i)));
                    nextFlow();
                }
                pending = n;
                pendingFrom = 0;
                count += n;
            }
            nic.claim(pending);
            int delivered = 0;
            while (delivered < pending && nic.deliver(MEMORY, room(pendingFrom + delivered),
                    MEMORY.get(INT, length(pendingFrom + delivered)))) {
                delivered++;
            }
            pendingFrom += delivered;
            pending -= delivered;
            SENT.setRelease(this, sent + delivered);
            if (delivered > 0) {
                nic.ringDoorbells();
            }
            if (pending > 0) {
                Thread.onSpinWait();
            }
        }
        finished = true;
    }

    /** The address of the length of the burst's {@code i}-th frame. */
    private long length(int i) {
        return at + LENGTHS + (long) i * Integer.BYTES;
    }

    /** The address of the staging room of the burst's {@code i}-th frame. */
    private long room(int i) {
        return at + ROOMS + (long) i * MbufPool.ROOM_STRIDE_BYTES;
    }

    private void pace(long start, long count) {
        if (profile.packetsPerSecond() == 0) {
            return;
        }
        long due = start + (long) (count * (1e9 / profile.packetsPerSecond()));
        long wait;
        while ((wait = due - System.nanoTime()) > 0 && !stopped) {
            if (wait > 200_000) {
                LockSupport.parkNanos(wait - 100_000);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Writes the current flow's next frame at {@code f} of the staging memory and returns its length: the header
     * template of its kind (family and protocol) is copied in one go, then the per-flow fields are patched
     * (addresses, ports, checksum, sequence).
     */
    private int build(long f) {
        int kind = kind();
        int length = templateLength[kind];
        MemorySegment data = MEMORY;
        MemorySegment.copy(data, at + TEMPLATES + (long) kind * TEMPLATE_BYTES, data, f, headerLength[kind]);
        long l3 = f + (profile.vlan() == 0 ? 14 : 18);
        boolean v6 = kind >= 3;
        long l4 = l3 + (v6 ? 40 : 20);
        if (v6) {
            data.set(U64, l3 + 16, source);
            data.set(U64, l3 + 32, destination << 16 | 1);
        } else {
            int src = sourceBase + (int) source;
            int dst = destinationBase + (int) destination * 256 + 1;
            data.set(U32, l3 + 12, src);
            data.set(U32, l3 + 16, dst);
            int sum = templateChecksum[kind] + (src >>> 16) + (src & 0xFFFF) + (dst >>> 16) + (dst & 0xFFFF);
            sum = (sum & 0xFFFF) + (sum >>> 16);
            sum = (sum & 0xFFFF) + (sum >>> 16);
            data.set(U16, l3 + 10, (short) ~sum);
        }
        long sequenceAt = at + SEQUENCES + flow * Long.BYTES;
        long seq = data.get(LONG, sequenceAt);
        data.set(LONG, sequenceAt, seq + 1);
        int proto = kind % 3;
        if (proto == ICMP_KIND) {
            data.set(U32, l4 + 4, ((int) flow << 16) | (int) (seq & 0xFFFF));
        } else {
            data.set(U16, l4, (short) (1024 + portOffset));
            data.set(U16, l4 + 2, (short) ((proto == UDP_KIND ? 5001 : 80) + portBlock));
            if (proto == TCP_KIND) {
                data.set(U32, l4 + 4, (int) seq);
                data.set(ValueLayout.JAVA_BYTE, l4 + 13, (byte) (seq == 0 ? FlowKey.TCP_SYN : FlowKey.TCP_ACK));
            }
        }
        long trailer = f + length - TRAILER_BYTES;
        data.set(INT, trailer, profile.firstFlowId() + (int) flow);
        data.set(LONG, trailer + 4, run | seq);
        return length;
    }

    /** The current flow's kind: 0..2: IPv4 UDP, TCP, ICMP; 3..5: the same over IPv6. */
    private int kind() {
        int proto = protocolOf(profile, (int) protocolBucket);
        int p = proto == FlowKey.PROTO_UDP ? UDP_KIND : proto == FlowKey.PROTO_TCP ? TCP_KIND : ICMP_KIND;
        return familyBucket < profile.ipv6Percent() ? 3 + p : p;
    }

    /** Builds the header templates: every field but the per-flow ones, IPv4 checksum over zero addresses. */
    private void buildTemplates() {
        for (int kind = 0; kind < 6; kind++) {
            boolean v6 = kind >= 3;
            int proto = kind % 3;
            int ipProto = proto == UDP_KIND ? FlowKey.PROTO_UDP : proto == TCP_KIND ? FlowKey.PROTO_TCP
                    : v6 ? FlowKey.PROTO_ICMPV6 : FlowKey.PROTO_ICMP;
            int l2Bytes = profile.vlan() == 0 ? 14 : 18;
            int l3Bytes = v6 ? 40 : 20;
            int l4Bytes = proto == TCP_KIND ? 20 : 8;
            int length = Math.max(profile.frameBytes(), l2Bytes + l3Bytes + l4Bytes + TRAILER_BYTES);
            templateLength[kind] = length;
            // the template's zero padding goes out too, so the leading bytes of a frame are deterministic
            headerLength[kind] = Math.min(length - TRAILER_BYTES, TEMPLATE_BYTES);
            long t = at + TEMPLATES + (long) kind * TEMPLATE_BYTES;
            MemorySegment d = MEMORY;
            d.set(U16, t, (short) (dstMac >>> 32));
            d.set(U32, t + 2, (int) dstMac);
            d.set(U16, t + 6, (short) (srcMac >>> 32));
            d.set(U32, t + 8, (int) srcMac);
            long at = t + 12;
            if (profile.vlan() != 0) {
                d.set(U16, at, (short) FlowKey.ETHERTYPE_VLAN);
                d.set(U16, at + 2, (short) profile.vlan());
                at += 4;
            }
            d.set(U16, at, (short) (v6 ? FlowKey.ETHERTYPE_IPV6 : FlowKey.ETHERTYPE_IPV4));
            long l3 = at + 2;
            int ipPayload = length - l2Bytes - l3Bytes;
            if (v6) {
                d.set(U32, l3, 6 << 28);
                d.set(U16, l3 + 4, (short) ipPayload);
                d.set(ValueLayout.JAVA_BYTE, l3 + 6, (byte) ipProto);
                d.set(ValueLayout.JAVA_BYTE, l3 + 7, (byte) 64);
                d.set(U64, l3 + 8, 0xFD00L << 48);
                d.set(U64, l3 + 24, 0xFD01L << 48);
            } else {
                d.set(U32, l3, 0x4500_0000 | (length - l2Bytes));
                d.set(U32, l3 + 4, 0x4000);
                d.set(U32, l3 + 8, (64 << 24) | (ipProto << 16));
                templateChecksum[kind] = ~ipv4Checksum(d, l3) & 0xFFFF;
            }
            long l4 = l3 + l3Bytes;
            if (proto == ICMP_KIND) {
                d.set(U32, l4, (v6 ? 128 : 8) << 24);
            } else {
                if (proto == UDP_KIND) { // ports are per flow, see build
                    d.set(U32, l4 + 4, ipPayload << 16);
                } else {
                    d.set(U32, l4 + 12, (5 << 28) | 0xFFFF);
                }
            }
        }
    }

    private static short ipv4Checksum(MemorySegment data, long l3) {
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += data.get(U16, l3 + i) & 0xFFFF;
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        return (short) ~sum;
    }
}
