package io.edp.engine.nic.loopback;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufPool;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A copy of every frame a loopback port transmits, in transmit order, for a test to compare byte for byte. The
 * space for {@code capacity} frames is taken up front, so recording allocates nothing; frames beyond it are
 * counted and make {@link #take()} fail rather than vanish. Workers sharing the port record under its monitor.
 */
final class TransmitCapture {

    private final Mbuf mbuf;
    private final byte[] frames;
    private final int[] lengths;
    private int count;
    private long overflowed;

    TransmitCapture(MbufPool pool, int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capture capacity must be positive: " + capacity);
        }
        this.mbuf = new Mbuf(pool);
        this.frames = new byte[capacity * MbufPool.DATA_ROOM_BYTES];
        this.lengths = new int[capacity];
    }

    synchronized void record(int[] mbufs, int n) {
        for (int i = 0; i < n; i++) {
            if (count == lengths.length) {
                overflowed++;
                continue;
            }
            Mbuf m = mbuf.wrap(mbufs[i]);
            int length = m.dataLength();
            MemorySegment.copy(m.data(), ValueLayout.JAVA_BYTE, m.dataAddress(), frames,
                    count * MbufPool.DATA_ROOM_BYTES, length);
            lengths[count++] = length;
        }
    }

    /** The frames recorded since the last take, oldest first; the capture goes on empty. */
    synchronized List<byte[]> take() {
        if (overflowed > 0) {
            throw new IllegalStateException(overflowed + " transmitted frames did not fit the capture of "
                    + lengths.length);
        }
        List<byte[]> taken = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int from = i * MbufPool.DATA_ROOM_BYTES;
            taken.add(Arrays.copyOfRange(frames, from, from + lengths[i]));
        }
        count = 0;
        return taken;
    }
}
