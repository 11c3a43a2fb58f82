package io.edp.engine.worker;

import io.edp.engine.StormControl;
import io.edp.engine.capture.CaptureSession;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.metrics.Counters;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.FrameRewriter;
import io.edp.engine.reject.TokenBucket;
import io.edp.engine.slowpath.ForwardingTables;
import io.edp.engine.slowpath.IoChain;
import java.lang.foreign.ValueLayout;

/**
 * Floods a broadcast or multicast frame within its segment, as a vSwitch does: from a VM port to every other VM
 * port of the VLAN and to the default uplink (tagged), from an uplink to the VLAN's VM ports only (never back to
 * an uplink, so two uplinks make no loop). The original buffer goes to the last port, a copy from the worker's
 * {@link MbufCache} to each other (buffers, no heap allocation); each leaves with its port's tagging. Storm
 * control ({@link StormControl}) holds a worker to a rate of flooded frames with a token bucket: a frame beyond it
 * is dropped before any copy is made. Counts the frames flooded, the copies made, copies that found no free buffer
 * and the frames storm control dropped.
 */
public final class Flood {

    public static final int FLOODED = 0;
    public static final int COPIES = 1;
    public static final int NO_BUFFER = 2;
    public static final int RATE_LIMITED = 3;
    public static final int COUNTER_COUNT = 4;

    private final MbufCache mbufs;
    private final Mbuf copy;
    private final Transmit transmit;
    private final long[] drops;
    private final Counters counters = new Counters(COUNTER_COUNT);
    private final TokenBucket bucket = new TokenBucket(StormControl.DEFAULT.framesPerSecond(),
            StormControl.DEFAULT.burst());
    /** The limit {@link #bucket} runs at: the current generation's (compared by reference, once per flood). */
    private StormControl limit = StormControl.DEFAULT;

    Flood(MbufCache mbufs, MbufPool pool, Transmit transmit, long[] drops) {
        this.mbufs = mbufs;
        this.copy = new Mbuf(pool);
        this.transmit = transmit;
        this.drops = drops;
    }

    Counters counters() {
        return counters;
    }

    /**
     * Sends buffer {@code index} (the parsed frame {@code m}) to the ports of {@code segment} but its own, or drops
     * it when storm control holds it back at {@code nowMillis}.
     */
    void flood(int index, Mbuf m, int segment, Generation g, CaptureSession[] taps, long nanos, int nowMillis) {
        ForwardingTables t = g.tables();
        int in = m.port();
        int[] vmPorts = t.vlanPorts(segment);
        int uplink = t.isUplink(in) ? -1 : t.defaultUplink();
        int last = uplink;
        if (last < 0 && vmPorts != null) {
            for (int p : vmPorts) {
                last = p != in ? p : last;
            }
        }
        if (last < 0) {
            drops[DropReason.NO_DESTINATION.ordinal()]++;
            mbufs.free(index);
            return;
        }
        long[] c = counters.values();
        if (g.stormControl() != limit) {
            limit = g.stormControl();
            bucket.limit(limit.framesPerSecond(), limit.burst());
        }
        if (!bucket.tryTake(nowMillis)) {
            c[RATE_LIMITED]++;
            drops[DropReason.STORM_CONTROL.ordinal()]++;
            mbufs.free(index);
            return;
        }
        c[FLOODED]++;
        int outerTag = FlowKey.outerTag(m.descriptors().get(ValueLayout.JAVA_LONG_UNALIGNED,
                m.flowKeyAddress() + FlowKey.L2));
        if (vmPorts != null) {
            for (int p : vmPorts) {
                if (p != in && p != last) {
                    send(copyOf(m), p, outerTag, 0, g, taps, nanos);
                }
            }
        }
        send(index, last, outerTag, t.isUplink(last) ? segment : 0, g, taps, nanos);
    }

    /** A copy of the frame of {@code m} in a fresh buffer, or -1 when the pool is empty. */
    private int copyOf(Mbuf m) {
        int index = mbufs.allocate();
        long[] c = counters.values();
        if (index < 0) {
            c[NO_BUFFER]++;
            return -1;
        }
        copy.wrap(index).copyFrom(m.data(), m.dataAddress(), m.dataLength()).port(m.port()).l3Offset(m.l3Offset());
        c[COPIES]++;
        return index;
    }

    private void send(int index, int port, int outerTag, int egressVlan, Generation g, CaptureSession[] taps,
            long nanos) {
        if (index < 0) {
            return;
        }
        FrameRewriter.vlan(copy.wrap(index), IoChain.switchedVlanOp(outerTag, egressVlan), egressVlan);
        if (transmit.room() <= NicDriver.MAX_BURST) {
            transmit.send(g, taps, nanos); // keep a burst's room for the packets still to come
        }
        transmit.stage(index, port);
    }
}
