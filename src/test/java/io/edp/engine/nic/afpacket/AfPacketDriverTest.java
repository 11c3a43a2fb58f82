package io.edp.engine.nic.afpacket;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.bench.TrafgenProfile;
import io.edp.bench.VethLab;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.ForwardingPathExtension;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.TestFrames;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The driver on veth pairs: a generator namespace sends with trafgen into {@code in<id>}, a minimal forwarding
 * loop moves frames from {@code in<id>} to {@code out<id>}, whose peer sits in a sink namespace. The interfaces'
 * own counters are the reference.
 */
class AfPacketDriverTest {

    private static final int FLOWS = 64;
    private static final long DEADLINE_NANOS = 10_000_000_000L;
    private static final int WARM_UP_ROUNDS = 20;
    /** Enough frames that one allocation per frame could not hide among the measurement's noise. */
    private static final long MIN_MEASURED_FRAMES = 5_000;
    private static final long QUIET_NANOS = 100_000_000L;

    @RegisterExtension
    static final ForwardingPathExtension TOPOLOGY = new ForwardingPathExtension();

    private final MbufPool pool = new MbufPool(4096, Mbuf.DESCRIPTOR_BYTES);
    private final MbufCache cache = new MbufCache(pool);
    private final int[] burst = new int[NicDriver.MAX_BURST];

    @Test
    void forwardsEveryFrameAcrossTwoFanoutQueuesAndTheInterfaceCountersAgree() {
        VethLab lab = TOPOLOGY.lab();
        VethLab.ForwardingPath path = TOPOLOGY.path();
        long frames = 3000;
        long sinkBefore = lab.counter(path.sink(), VethLab.SINK_DEVICE, "rx_packets");
        long inBefore = lab.counter(null, path.ingress(), "rx_packets");
        try (AfPacketDriver rx = AfPacketDriver.open(AfPacketConfig.of(path.ingress(), 2), 1, pool);
                AfPacketDriver tx = AfPacketDriver.open(AfPacketConfig.of(path.egress(), 1), 2, pool)) {
            lab.trafgen(path.generator(), VethLab.GENERATOR_DEVICE, new TrafgenProfile(FLOWS, 64, 0), frames);

            long[] perQueue = new long[2];
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (perQueue[0] + perQueue[1] < frames && System.nanoTime() < deadline) {
                for (int q = 0; q < 2; q++) {
                    int n = rx.rxBurst(q, cache, burst, NicDriver.MAX_BURST);
                    perQueue[q] += n;
                    tx.txBurst(0, cache, burst, n);
                }
            }
            awaitCounter(path.sink(), VethLab.SINK_DEVICE, "rx_packets", sinkBefore + frames);

            assertThat(perQueue[0] + perQueue[1]).isEqualTo(frames);
            assertThat(perQueue[0]).as("fanout hash spreads %d flows over both queues", FLOWS).isPositive();
            assertThat(perQueue[1]).isPositive();
            assertThat(lab.counter(null, path.ingress(), "rx_packets") - inBefore).isEqualTo(frames);
            assertThat(tx.txPackets(0)).isEqualTo(frames);
            assertThat(lab.counter(path.sink(), VethLab.SINK_DEVICE, "rx_packets") - sinkBefore).isEqualTo(frames);
            assertThat(rx.rxRingDrops()).isZero();
            cache.flush();
            assertThat(pool.available()).as("every buffer came back").isEqualTo(pool.capacity());
        }
    }

    @Test
    void receivingAndTransmittingAllocateNothingPerFrameAfterWarmUp() {
        VethLab lab = TOPOLOGY.lab();
        VethLab.ForwardingPath path = TOPOLOGY.path();
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (AfPacketDriver rx = AfPacketDriver.open(AfPacketConfig.of(path.ingress(), 1), 1, pool);
                AfPacketDriver tx = AfPacketDriver.open(AfPacketConfig.of(path.egress(), 1), 2, pool)) {
            // until the JIT has compiled the loop and the sendto downcall (interpreted, they box), rounds allocate;
            // a per-frame allocation would make every round allocate. On a busy machine the kernel drops part of
            // what trafgen sends (its ring fills before this thread drains it): what counts is what arrived.
            long allocated = -1;
            long forwarded = 0;
            for (int round = 0; round < WARM_UP_ROUNDS && (allocated != 0 || forwarded < MIN_MEASURED_FRAMES);
                    round++) {
                lab.trafgen(path.generator(), VethLab.GENERATOR_DEVICE, new TrafgenProfile(FLOWS, 64, 0), 50_000);
                long before = threads.getCurrentThreadAllocatedBytes();
                forwarded = forwardWhatArrived(rx, tx);
                allocated = threads.getCurrentThreadAllocatedBytes() - before;
            }

            assertThat(forwarded).as("frames forwarded in the measured round").isGreaterThanOrEqualTo(
                    MIN_MEASURED_FRAMES);
            assertThat(allocated).as("bytes allocated while forwarding %d frames", forwarded).isZero();
        }
    }

    /**
     * Moves frames from the RX queue 0 of {@code rx} to TX queue 0 of {@code tx} until none has arrived for many
     * RX block timeouts (1 ms each): trafgen has already returned, so every frame it sent is in the ring or dropped.
     */
    private long forwardWhatArrived(AfPacketDriver rx, AfPacketDriver tx) {
        long forwarded = 0;
        long lastFrame = System.nanoTime();
        while (true) {
            long now = System.nanoTime(); // taken before the burst: a thread paused in between still looks again
            int n = rx.rxBurst(0, cache, burst, NicDriver.MAX_BURST);
            if (n > 0) {
                forwarded += tx.txBurst(0, cache, burst, n);
                lastFrame = System.nanoTime();
            } else if (now - lastFrame > QUIET_NANOS) {
                return forwarded;
            }
        }
    }

    @Test
    void vlanTagTheKernelStripsIsPutBackIntoTheFrame() {
        VethLab lab = TOPOLOGY.lab();
        VethLab.ForwardingPath path = TOPOLOGY.path();
        try (AfPacketDriver rx = AfPacketDriver.open(AfPacketConfig.of(path.ingress(), 1), 1, pool)) {
            lab.trafgen(path.generator(), VethLab.GENERATOR_DEVICE, new TrafgenProfile(1, 64, 100), 1);

            int n = awaitFrames(rx, 0);

            assertThat(n).isEqualTo(1);
            Mbuf frame = new Mbuf(pool).wrap(burst[0]);
            ValueLayout.OfShort bigEndian = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
            assertThat(frame.data().get(bigEndian, frame.dataAddress() + 12)).isEqualTo((short) 0x8100);
            assertThat(frame.data().get(bigEndian, frame.dataAddress() + 14)).isEqualTo((short) 100);
            assertThat(frame.data().get(bigEndian, frame.dataAddress() + 16)).isEqualTo((short) 0x0800);
            assertThat(frame.dataLength()).isEqualTo(64); // 60 sent + the 4-byte tag
            cache.freeBurst(burst, n);
        }
    }

    @Test
    void framesItTransmitsDoNotComeBackOnItsOwnReceiveQueue() {
        VethLab lab = TOPOLOGY.lab();
        VethLab.ForwardingPath path = TOPOLOGY.path();
        long frames = 500;
        long sinkBefore = lab.counter(path.sink(), VethLab.SINK_DEVICE, "rx_packets");
        try (AfPacketDriver port = AfPacketDriver.open(AfPacketConfig.of(path.egress(), 1), 2, pool)) {
            Mbuf m = new Mbuf(pool);
            MemorySegment udp = MemorySegment.ofArray(TestFrames.udp(1000, 60));
            for (long sent = 0; sent < frames; ) {
                int count = (int) Math.min(NicDriver.MAX_BURST, frames - sent);
                for (int i = 0; i < count; i++) {
                    burst[i] = cache.allocate();
                    m.wrap(burst[i]).copyFrom(udp, 0, (int) udp.byteSize());
                }
                sent += port.txBurst(0, cache, burst, count);
            }
            awaitCounter(path.sink(), VethLab.SINK_DEVICE, "rx_packets", sinkBefore + frames);

            long received = 0;
            long until = System.nanoTime() + 100_000_000L; // many RX block timeouts (1 ms) after the frames left
            while (System.nanoTime() < until) {
                int n = port.rxBurst(0, cache, burst, NicDriver.MAX_BURST);
                received += n;
                cache.freeBurst(burst, n);
            }

            assertThat(port.txPackets(0)).isEqualTo(frames);
            assertThat(lab.counter(path.sink(), VethLab.SINK_DEVICE, "rx_packets") - sinkBefore).isEqualTo(frames);
            assertThat(received).isZero();
        }
    }

    private int awaitFrames(AfPacketDriver driver, int queue) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        int n = 0;
        while (n == 0 && System.nanoTime() < deadline) {
            n = driver.rxBurst(queue, cache, burst, NicDriver.MAX_BURST);
        }
        return n;
    }

    private static void awaitCounter(String namespace, String device, String statistic, long atLeast) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (TOPOLOGY.lab().counter(namespace, device, statistic) < atLeast && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }
}
