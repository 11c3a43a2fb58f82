package io.edp.engine.nic.steering;

import com.sun.management.ThreadMXBean;
import io.edp.engine.nic.VnicAddress;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NetQueueSteeringTest {

    private static final VnicAddress VM_A = VnicAddress.of("00:50:56:00:00:0a", 100);
    private static final VnicAddress VM_B = VnicAddress.of("00:50:56:00:00:0b", 0);
    private static final VnicAddress VM_C = VnicAddress.of("00:50:56:00:00:0c", 200);
    private static final List<Integer> POOL = List.of(4, 5, 6, 7);

    /** Queue 0 default, queues 1-3 for dedicated filters, 4-7 the shared RSS pool. */
    private final NetQueueSteering nic = new NetQueueSteering(NetQueueConfig.withRssPool(8, 3, POOL));

    @Test
    void framesForAVmsMacAndVlanLandInItsQueue() {
        assertThat(nic.addFilter(VM_A, 2)).isEqualTo(FilterPlacement.DEDICATED_QUEUE);

        for (int flow = 0; flow < 50; flow++) {
            assertThat(queueOf(TestFrames.ipv4Udp(VM_A.mac(), VM_A.vlan(), flow))).isEqualTo(2);
        }
    }

    @Test
    void sameMacOnAnotherVlanAndUnknownMacsGoToTheDefaultQueue() {
        nic.addFilter(VM_A, 2);

        assertThat(queueOf(TestFrames.ipv4Udp(VM_A.mac(), 101, 1))).isZero();
        assertThat(queueOf(TestFrames.ipv4Udp(VM_A.mac(), 0, 1))).isZero();
        assertThat(queueOf(TestFrames.ipv4Udp(VM_B.mac(), 0, 1))).isZero();
    }

    @Test
    void broadcastAndMulticastGoToTheDefaultQueue() {
        nic.addSharedRssFilter(VM_B);

        assertThat(queueOf(TestFrames.ipv4Udp(0xffffffffffffL, 0, 1))).isZero();
        assertThat(queueOf(TestFrames.ipv4Udp(0x01005e000001L, 0, 1))).isZero();
    }

    @Test
    void filterBeyondTheNicsLimitIsRefusedAndTheVnicStaysOnTheDefaultQueue() {
        nic.addFilter(VM_A, 1);
        nic.addFilter(VM_B, 2);
        nic.addSharedRssFilter(VM_C);
        VnicAddress fourth = VnicAddress.of("00:50:56:00:00:0d", 0);

        assertThat(nic.addFilter(fourth, 3)).isEqualTo(FilterPlacement.DEFAULT_QUEUE);
        assertThat(nic.filterCount()).isEqualTo(3);
        assertThat(queueOf(TestFrames.ipv4Udp(fourth.mac(), 0, 1))).isZero();

        nic.removeFilter(VM_A);
        assertThat(nic.addFilter(fourth, 3)).isEqualTo(FilterPlacement.DEDICATED_QUEUE);
        assertThat(queueOf(TestFrames.ipv4Udp(fourth.mac(), 0, 1))).isEqualTo(3);
        assertThat(queueOf(TestFrames.ipv4Udp(VM_A.mac(), VM_A.vlan(), 1))).isZero();
    }

    @Test
    void vnicListGivesDedicatedQueuesThenThePoolAndAVnicWaitingOnTheDefaultQueueGetsTheNextFreeFilter() {
        VnicAddress d = VnicAddress.of("00:50:56:00:00:0d", 0);
        VnicAddress e = VnicAddress.of("00:50:56:00:00:0e", 0);
        NetQueueSteering small = new NetQueueSteering(NetQueueConfig.withRssPool(4, 3, List.of(3)));

        small.vnicsChanged(List.of(VM_A, VM_B, VM_C, d));

        assertThat(queueOf(small, VM_A)).isEqualTo(1);
        assertThat(queueOf(small, VM_B)).isEqualTo(2);
        assertThat(queueOf(small, VM_C)).as("no dedicated queue left: the pool").isEqualTo(3);
        assertThat(queueOf(small, d)).as("no filter left: the default queue").isZero();

        small.vnicsChanged(List.of(VM_B, VM_C, d, e));

        assertThat(queueOf(small, VM_A)).as("gone").isZero();
        assertThat(queueOf(small, VM_B)).isEqualTo(2);
        assertThat(queueOf(small, d)).as("waited, then took the freed queue").isEqualTo(1);
        assertThat(queueOf(small, e)).as("no filter left").isZero();
        assertThat(small.filterCount()).isEqualTo(3);
    }

    private static int queueOf(NetQueueSteering steering, VnicAddress vnic) {
        MemorySegment frame = TestFrames.ipv4Udp(vnic.mac(), vnic.vlan(), 7);
        return steering.rxQueue(frame, 0, (int) frame.byteSize());
    }

    @Test
    void dedicatedFilterCannotTargetTheDefaultQueueOrThePool() {
        assertThatThrownBy(() -> nic.addFilter(VM_A, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> nic.addFilter(VM_A, 5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void defaultQueueMayBeInThePoolAndStillTakesBroadcast() {
        NetQueueSteering uplink = new NetQueueSteering(NetQueueConfig.withRssPool(4, 1, List.of(0, 1, 2, 3)));
        uplink.addSharedRssFilter(VM_B);
        Set<Integer> seen = new TreeSet<>();
        for (int flow = 0; flow < 200; flow++) {
            MemorySegment frame = TestFrames.ipv4Udp(VM_B.mac(), 0, flow);
            seen.add(uplink.rxQueue(frame, 0, (int) frame.byteSize()));
        }
        MemorySegment broadcast = TestFrames.ipv4Udp(0xffffffffffffL, 0, 1);

        assertThat(seen).containsExactly(0, 1, 2, 3);
        assertThat(uplink.rxQueue(broadcast, 0, (int) broadcast.byteSize())).isZero();
    }

    @Test
    void sharedRssSpreadsFlowsOfSeveralVmsOverThePoolEvenly() {
        nic.addSharedRssFilter(VM_B);
        nic.addSharedRssFilter(VM_C);
        Map<Integer, Integer> perQueue = new HashMap<>();
        int flows = 4000;

        for (int flow = 0; flow < flows; flow++) {
            VnicAddress vm = flow % 2 == 0 ? VM_B : VM_C;
            perQueue.merge(queueOf(TestFrames.ipv4Udp(vm.mac(), vm.vlan(), flow)), 1, Integer::sum);
        }

        assertThat(perQueue.keySet()).containsExactlyInAnyOrderElementsOf(POOL);
        int fairShare = flows / POOL.size();
        assertThat(perQueue.values())
                .allSatisfy(count -> assertThat(count).isBetween(fairShare * 3 / 4, fairShare * 5 / 4));
    }

    @Test
    void everyPacketOfAFlowTakesTheSameRssQueue() {
        nic.addSharedRssFilter(VM_B);
        for (int flow = 0; flow < 100; flow++) {
            int first = queueOf(TestFrames.ipv4Udp(VM_B.mac(), 0, flow));
            for (int packet = 0; packet < 5; packet++) {
                assertThat(queueOf(TestFrames.ipv4Udp(VM_B.mac(), 0, flow))).isEqualTo(first);
            }
        }
    }

    @Test
    void rssQueueIsTheIndirectionEntryOfTheToeplitzHash() {
        nic.addSharedRssFilter(VM_B);
        MemorySegment frame = TestFrames.frame(VM_B.mac(), 0, "66.9.149.187", 2794, "161.142.100.80", 1766,
                TestFrames.TCP);
        int length = (int) frame.byteSize();

        assertThat(nic.rxHash(frame, 0, length)).isEqualTo(0x51ccc178);
        assertThat(nic.rxQueue(frame, 0, length)).isEqualTo(nic.indirectionTable()[0x51ccc178 & 127]);
    }

    @Test
    void steeringAFrameAllocatesNothing() {
        nic.addFilter(VM_A, 2);
        nic.addSharedRssFilter(VM_B);
        MemorySegment filtered = TestFrames.ipv4Udp(VM_A.mac(), VM_A.vlan(), 1);
        MemorySegment shared = TestFrames.frame(VM_B.mac(), 0, "2001:db8::1", 5000, "2001:db8::2", 80, TestFrames.TCP);
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long checksum = 0;
        for (int i = 0; i < 20_000; i++) {
            checksum += queueOf(filtered) + queueOf(shared);
        }

        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            checksum += queueOf(filtered) + queueOf(shared) + nic.rxHash(shared, 0, (int) shared.byteSize());
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(checksum).isNotZero();
        assertThat(allocated).isLessThan(1024);
    }

    @Test
    void vnicAddressRejectsGroupMacsAndBadVlans() {
        assertThatThrownBy(() -> VnicAddress.of("01:00:5e:00:00:01", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VnicAddress.of("00:50:56:00:00:01", 4095))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(VM_A).hasToString("00:50:56:00:00:0a/vlan100");
    }

    private int queueOf(MemorySegment frame) {
        return nic.rxQueue(frame, 0, (int) frame.byteSize());
    }
}
