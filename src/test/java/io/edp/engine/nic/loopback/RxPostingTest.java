package io.edp.engine.nic.loopback;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.EngineConfig;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.PortConfig;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How many buffers an RX queue of a loopback port keeps posted (the lines its worker cycles through), and when its
 * worker tops the ring up.
 */
class RxPostingTest {

    /** Buffers the port's queues took from {@code pool} after one poll of each, which posts their rings. */
    private static int posted(PortConfig port, MbufPool pool) {
        NicDriver nic = new LoopbackDriverFactory().open(port, pool);
        MbufCache cache = new MbufCache(pool);
        int[] burst = new int[NicDriver.MAX_BURST];
        for (int q = 0; q < port.rxQueues(); q++) {
            assertThat(nic.rxBurst(q, cache, burst, burst.length)).isZero();
        }
        cache.flush();
        int taken = taken(pool);
        nic.close();
        assertThat(pool.available()).isEqualTo(pool.capacity());
        return taken;
    }

    /** Buffers taken from {@code pool}: posted, received and not freed, or in a cache. */
    private static int taken(MbufPool pool) {
        return pool.capacity() - pool.available();
    }

    /** Puts a burst of {@code frame}s on queue 0's wire and receives it. */
    private static void receiveOneBurst(LoopbackNic nic, MbufCache cache, int[] burst, MemorySegment frame) {
        for (int i = 0; i < burst.length; i++) {
            assertThat(nic.inject(frame, 0, (int) frame.byteSize())).isTrue();
        }
        assertThat(nic.rxBurst(0, cache, burst, burst.length)).isEqualTo(burst.length);
    }

    @Test
    void aQueueKeepsTheDefaultRingOfBuffersPosted() {
        try (MbufPool pool = new MbufPool(EngineConfig.DEFAULT_MBUFS, Mbuf.DESCRIPTOR_BYTES)) {
            assertThat(posted(PortConfig.loopback(0, "p", 0, 2, 1), pool))
                    .isEqualTo(2 * LoopbackDriverFactory.DEFAULT_RING_SIZE).isEqualTo(1024);
        }
    }

    @Test
    void aQueueKeepsItsConfiguredRingPostedUpToASixteenthOfThePool() {
        try (MbufPool pool = new MbufPool(EngineConfig.DEFAULT_MBUFS, Mbuf.DESCRIPTOR_BYTES)) {
            assertThat(posted(new PortConfig(0, "p", 0, 1, 1, "loopback", Map.of("ringSize", "128")), pool))
                    .isEqualTo(128);
            assertThat(posted(new PortConfig(0, "p", 0, 1, 1, "loopback", Map.of("ringSize", "4096")), pool))
                    .isEqualTo(EngineConfig.DEFAULT_MBUFS / 16);
        }
    }

    @Test
    void theWorkerTopsTheRingUpOnceTwoBurstsOfBuffersAreMissing() {
        try (MbufPool pool = new MbufPool(EngineConfig.DEFAULT_MBUFS, Mbuf.DESCRIPTOR_BYTES);
                Arena arena = Arena.ofConfined()) {
            LoopbackNic nic = (LoopbackNic) new LoopbackDriverFactory().open(PortConfig.loopback(0, "p", 0, 1, 1),
                    pool);
            MbufCache cache = new MbufCache(pool);
            int[] burst = new int[NicDriver.MAX_BURST];
            nic.rxBurst(0, cache, burst, burst.length); // posts the ring
            int posted = taken(pool);
            MemorySegment frame = arena.allocate(64);

            receiveOneBurst(nic, cache, burst, frame);
            assertThat(taken(pool)).as("one burst missing: no refill").isEqualTo(posted);

            receiveOneBurst(nic, cache, burst, frame);
            assertThat(taken(pool)).as("two bursts missing: refilled").isEqualTo(posted + LoopbackNic.REFILL_BATCH);
            nic.close();
        }
    }
}
