package io.edp.engine.mbuf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MbufPoolTest {

    @Test
    void consecutiveFramesStartInDifferentCacheSets() {
        // a 48 KiB 12-way L1 has 64 sets of 64-byte lines; rooms 2,048 bytes apart put every frame in 2 of them
        try (MbufPool pool = new MbufPool(64, Mbuf.DESCRIPTOR_BYTES)) {
            Set<Long> sets = new HashSet<>();
            for (int i = 0; i < 64; i++) {
                sets.add((pool.dataRoomAddress(i) + MbufPool.HEADROOM_BYTES) / 64 % 64);
            }
            assertThat(sets).hasSize(64);
        }
    }
}
