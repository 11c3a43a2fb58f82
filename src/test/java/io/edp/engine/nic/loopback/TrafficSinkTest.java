package io.edp.engine.nic.loopback;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.Engine;
import io.edp.engine.Mode;
import io.edp.engine.TestTopology;
import io.edp.engine.Traffic;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufPool;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class TrafficSinkTest {

    private static final int FRAME_BYTES = 64;
    private static final long RUN = 7L << TrafficGenerator.RUN_SHIFT;

    @Test
    void aSecondIdenticalRunStartsEveryFlowsSequenceAfresh() {
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            TrafficSink sink = TestTopology.nic(engine, 2).sink();
            TrafficProfile run = TestTopology.routed(64, 10_000);

            Traffic.sendAll(engine, 0, run);
            Traffic.sendAll(engine, 0, run);

            assertThat(sink.packets()).isEqualTo(20_000);
            assertThat(sink.reordered()).isZero();
            assertThat(sink.lost()).isZero();
        }
    }

    @Test
    void anIdleSinkHoldsNoFlowPages() {
        try (MbufPool pool = new MbufPool(8, Mbuf.DESCRIPTOR_BYTES)) {
            TrafficSink sink = new TrafficSink(pool, LoopbackNic.DEFAULT_SINK_FLOWS, 1);

            assertThat(sink.pagesMade()).isZero();
            assertThat(sink.flowPackets(5)).isZero();
        }
    }

    @Test
    void flowsOfPagesMadeOnTheirFirstFrameStillShowLossAndReordering() {
        try (MbufPool pool = new MbufPool(8, Mbuf.DESCRIPTOR_BYTES)) {
            TrafficSink sink = new TrafficSink(pool, LoopbackNic.DEFAULT_SINK_FLOWS, 1);
            int low = 3;
            int high = 5 * TrafficSink.PAGE_FLOWS + 17;

            receive(pool, sink, low, RUN, RUN + 1);
            receive(pool, sink, high, RUN, RUN + 3, RUN + 2);

            assertThat(sink.pagesMade()).isEqualTo(2);
            assertThat(sink.lost()).isEqualTo(2);
            assertThat(sink.reordered()).isEqualTo(1);
            assertThat(sink.flowPackets(low)).isEqualTo(2);
            assertThat(sink.flowPackets(high)).isEqualTo(3);
            assertThat(sink.flowPackets(high + 1)).isZero();
            assertThat(sink.flowDigest(high)).isNotZero();
        }
    }

    /** Transmits one frame per sequence number of {@code flow}, each with the generator's trailer. */
    private static void receive(MbufPool pool, TrafficSink sink, int flow, long... sequences) {
        int[] mbufs = new int[sequences.length];
        assertThat(pool.takeBulk(mbufs, 0, mbufs.length)).isEqualTo(mbufs.length);
        Mbuf mbuf = new Mbuf(pool);
        for (int i = 0; i < mbufs.length; i++) {
            mbuf.wrap(mbufs[i]).dataOffset(MbufPool.HEADROOM_BYTES).dataLength(FRAME_BYTES);
            long trailer = pool.dataRoomAddress(mbufs[i]) + MbufPool.HEADROOM_BYTES + FRAME_BYTES
                    - TrafficGenerator.TRAILER_BYTES;
            pool.dataRooms().set(ValueLayout.JAVA_INT_UNALIGNED, trailer, flow);
            pool.dataRooms().set(ValueLayout.JAVA_LONG_UNALIGNED, trailer + 4, sequences[i]);
        }
        sink.receive(0, mbufs, mbufs.length);
        pool.returnBulk(mbufs, 0, mbufs.length);
    }
}
