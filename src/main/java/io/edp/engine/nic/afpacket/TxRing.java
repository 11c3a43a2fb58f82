package io.edp.engine.nic.afpacket;

import static io.edp.engine.nic.afpacket.PacketLayouts.TPACKET2_TX_DATA_OFFSET;
import static io.edp.engine.nic.afpacket.PacketLayouts.TP_STATUS_AVAILABLE;
import static io.edp.engine.nic.afpacket.PacketLayouts.TP_STATUS_SEND_REQUEST;
import static io.edp.engine.nic.afpacket.PacketLayouts.V2_LEN;
import static io.edp.engine.nic.afpacket.PacketLayouts.V2_STATUS;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import java.lang.foreign.MemorySegment;

/**
 * The writing side of one TPACKET_V2 TX ring: a burst fills consecutive free frames and marks them
 * SEND_REQUEST, then one non-blocking {@code sendto} makes the kernel send them all. One system call per
 * burst, no per-packet message headers. Owned by the thread transmitting on its queue.
 */
final class TxRing {

    private final MemorySegment ring;
    private final int frameBytes;
    private final int frameCount;
    private final int socket;

    private int head;
    private final Mbuf mbuf;

    private long packets;
    private long dropped;
    private long kickFailures;
    private int lastKickErrno;

    TxRing(MemorySegment ring, int frameBytes, int frameCount, PacketSocket socket, MbufPool pool) {
        this.ring = ring;
        this.frameBytes = frameBytes;
        this.frameCount = frameCount;
        this.socket = socket.fd();
        this.mbuf = new Mbuf(pool);
    }

    int transmit(MbufCache cache, int[] mbufs, int count) {
        Mbuf m = mbuf;
        long maxFrame = frameBytes - TPACKET2_TX_DATA_OFFSET;
        int sent = 0;
        for (int i = 0; i < count; i++) {
            long frame = (long) head * frameBytes;
            if ((int) V2_STATUS.getAcquire(ring, frame) != TP_STATUS_AVAILABLE) {
                dropped += count - i; // the kernel still owns the next frame: the rest of the burst is dropped
                break;
            }
            m.wrap(mbufs[i]);
            int length = m.dataLength();
            if (length > maxFrame) {
                dropped++; // only a frame grown into the whole data room (no headroom left) is this long
                continue;
            }
            MemorySegment.copy(m.data(), m.dataAddress(), ring, frame + TPACKET2_TX_DATA_OFFSET, length);
            V2_LEN.set(ring, frame, length);
            V2_STATUS.setRelease(ring, frame, TP_STATUS_SEND_REQUEST);
            head = head + 1 == frameCount ? 0 : head + 1;
            sent++;
        }
        cache.freeBurst(mbufs, count);
        if (sent > 0) {
            packets += sent;
            if (Syscalls.kick(socket) < 0) {
                kickFailures++;
                lastKickErrno = Syscalls.currentErrno();
            }
        }
        return sent;
    }

    long packets() {
        return packets;
    }

    /** Frames dropped because the kernel still owned the next ring frame, or because they were too long. */
    long dropped() {
        return dropped;
    }

    long kickFailures() {
        return kickFailures;
    }

    int lastKickErrno() {
        return lastKickErrno;
    }
}
