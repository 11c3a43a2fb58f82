package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packet.Frames;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A million random and mutated frames through the real engine: nothing escapes a worker, and every frame is
 * accounted for (received = transmitted + dropped by reason).
 */
class FuzzTest {

    private static final int FRAMES = 1_000_000;

    private static List<byte[]> seeds() {
        long vm = 0x020000000001L;
        long router = 0x02ED00000001L;
        long peer = 0x0200000000AAL;
        return List.of(
                Frames.ethernet(router, peer).vlan(0x8100, 10).ipv4(17, 0x0A000001, 0x0A800101, 64, 0, 18)
                        .udp(1, 2, 10).bytes(),
                Frames.ethernet(vm, peer).vlan(0x8100, 10).ipv4(6, 0x0A000001, 0x0A810001, 2, 2, 20)
                        .tcp(1, 80, 0x12, 0).bytes(),
                Frames.ethernet(router, peer).vlan(0x88A8, 5).vlan(0x8100, 10).ipv4(1, 1, 2, 1, 0, 8)
                        .icmp(8, 0).bytes(),
                Frames.ethernet(router, peer).ipv6(0, 0xFD00L << 48, 1, 0xFD01L << 48, 2, 16).u8(17).u8(0).zeros(6)
                        .udp(5, 6, 0).bytes(),
                Frames.ethernet(0xFFFFFFFFFFFFL, peer).u16(FlowKey.ETHERTYPE_ARP).u16(1).u16(0x0800).u8(6).u8(4)
                        .u16(1).mac(peer).u32(1).mac(0).u32(2).bytes(),
                Frames.ethernet(router, peer).ipv6(58, 0, 1, 0, 2, 8).icmp(128, 0).bytes());
    }

    @Test
    void randomAndMutatedFramesAreForwardedOrDroppedWithAReasonNeverThrown() {
        SplittableRandom random = new SplittableRandom(20261202);
        List<byte[]> seeds = seeds();
        byte[] buffer = new byte[256];
        MemorySegment frame = MemorySegment.ofArray(buffer);
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).conntrackCapacity(4096).build())) {
            LoopbackNic wire = TestTopology.nic(engine, 0);
            for (int i = 0; i < FRAMES; i++) {
                int length;
                if (i % 4 == 0) {
                    length = random.nextInt(buffer.length);
                    for (int b = 0; b < length; b++) {
                        buffer[b] = (byte) random.nextInt();
                    }
                } else {
                    byte[] seed = seeds.get(random.nextInt(seeds.size()));
                    length = Math.max(0, Math.min(buffer.length, seed.length + random.nextInt(-20, 20)));
                    System.arraycopy(seed, 0, buffer, 0, Math.min(length, seed.length));
                    for (int flips = random.nextInt(4); flips > 0 && length > 0; flips--) {
                        buffer[random.nextInt(length)] = (byte) random.nextInt();
                    }
                }
                while (!wire.inject(frame, 0, length)) {
                    Thread.onSpinWait();
                }
            }
            EngineStats stats = Traffic.drained(engine, FRAMES);

            assertThat(stats.rxPackets()).isEqualTo(FRAMES);
            assertThat(stats.txPackets() + stats.dropped()).isEqualTo(FRAMES);
            assertThat(stats.workers()).allSatisfy(w -> assertThat(w.exceptions()).isZero());
            assertThat(stats.drops()).hasSizeGreaterThan(5);
            assertThat(stats.txPackets()).isPositive();
        }
    }
}
