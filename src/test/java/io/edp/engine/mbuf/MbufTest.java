package io.edp.engine.mbuf;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class MbufTest {

    /** Line 0 of buffer {@code index}'s descriptor, copied out. */
    private static byte[] line0(MbufPool pool, int index) {
        return pool.descriptors().asSlice(pool.descriptorAddress(index), Mbuf.FLOW_KEY_OFFSET)
                .toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void aReceivedDescriptorIsWhatAResetAndTheReceiveFieldsMake() {
        try (MbufPool pool = new MbufPool(4, Mbuf.DESCRIPTOR_BYTES)) {
            MbufCache cache = new MbufCache(pool);
            Mbuf m = new Mbuf(pool);
            int reset = cache.allocate();
            m.wrap(reset).dataLength(1514).port(1023).rxQueue(7).rssHash(0xCAFE_BABE);

            int raw = cache.allocateRaw();
            // whatever its last user left: a pushed tag's offset, a decided action, a connection, a hash
            MemorySegment.ofAddress(pool.descriptorAddress(raw)).reinterpret(Mbuf.DESCRIPTOR_BYTES)
                    .fill((byte) 0xA5);
            m.wrap(raw).received(1023, 7, 1514, 0xCAFE_BABE);

            assertThat(line0(pool, raw)).isEqualTo(line0(pool, reset));
            assertThat(m.dataOffset()).isEqualTo(MbufPool.HEADROOM_BYTES);
            assertThat(m.port()).isEqualTo(1023);
            assertThat(m.dataLength()).isEqualTo(1514);
            assertThat(m.rssHash()).isEqualTo(0xCAFE_BABE);
            assertThat(m.rxQueue()).isEqualTo(7);
            assertThat(m.txQueue()).isZero();
            assertThat(m.actionIndex()).isZero();
            assertThat(m.connection()).isZero();
        }
    }
}
