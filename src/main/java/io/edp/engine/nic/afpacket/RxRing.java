package io.edp.engine.nic.afpacket;

import static io.edp.engine.nic.afpacket.PacketLayouts.BLOCK_NUM_PKTS;
import static io.edp.engine.nic.afpacket.PacketLayouts.BLOCK_OFFSET_TO_FIRST_PKT;
import static io.edp.engine.nic.afpacket.PacketLayouts.BLOCK_STATUS;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_OUTGOING;
import static io.edp.engine.nic.afpacket.PacketLayouts.SLL_PKTTYPE;
import static io.edp.engine.nic.afpacket.PacketLayouts.TPACKET3_HDRLEN;
import static io.edp.engine.nic.afpacket.PacketLayouts.TP_STATUS_KERNEL;
import static io.edp.engine.nic.afpacket.PacketLayouts.TP_STATUS_USER;
import static io.edp.engine.nic.afpacket.PacketLayouts.TP_STATUS_VLAN_TPID_VALID;
import static io.edp.engine.nic.afpacket.PacketLayouts.TP_STATUS_VLAN_VALID;
import static io.edp.engine.nic.afpacket.PacketLayouts.V3_MAC;
import static io.edp.engine.nic.afpacket.PacketLayouts.V3_NEXT_OFFSET;
import static io.edp.engine.nic.afpacket.PacketLayouts.V3_NSEC;
import static io.edp.engine.nic.afpacket.PacketLayouts.V3_RXHASH;
import static io.edp.engine.nic.afpacket.PacketLayouts.V3_SEC;
import static io.edp.engine.nic.afpacket.PacketLayouts.V3_SNAPLEN;
import static io.edp.engine.nic.afpacket.PacketLayouts.V3_STATUS;
import static io.edp.engine.nic.afpacket.PacketLayouts.V3_VLAN_TCI;
import static io.edp.engine.nic.afpacket.PacketLayouts.V3_VLAN_TPID;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The reading side of one TPACKET_V3 RX ring: a ring of blocks, each filled by the kernel with variable-size
 * frames and handed over whole. The ring walks the current block's frames across bursts and returns the
 * block to the kernel as soon as its last frame is copied out. Owned by the thread polling its queue.
 */
final class RxRing {

    private static final ValueLayout.OfShort BE_SHORT =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final int ETHERNET_ADDRESSES = 12;
    private static final int VLAN_TAG = 4;
    private static final int ETH_P_8021Q = 0x8100;
    private static final int MAX_FRAME = MbufPool.DATA_ROOM_BYTES - MbufPool.HEADROOM_BYTES;

    private final MemorySegment ring;
    private final int blockBytes;
    private final int blockCount;
    private final int port;
    private final int queue;

    private int block;
    private long blockBase;
    private int framesLeft;
    private long frameAt;

    private final Mbuf mbuf;

    private long packets;
    private long oversized;

    RxRing(MemorySegment ring, int blockBytes, int blockCount, int port, int queue, MbufPool pool) {
        this.ring = ring;
        this.blockBytes = blockBytes;
        this.blockCount = blockCount;
        this.port = port;
        this.queue = queue;
        this.mbuf = new Mbuf(pool);
    }

    int receive(MbufCache cache, int[] mbufs, int max) {
        Mbuf m = mbuf;
        int n = 0;
        while (n < max) {
            if (framesLeft == 0 && !takeNextBlock()) {
                break;
            }
            long hdr = frameAt;
            int status = (int) V3_STATUS.get(ring, hdr);
            int snaplen = (int) V3_SNAPLEN.get(ring, hdr);
            boolean tagged = (status & TP_STATUS_VLAN_VALID) != 0;
            int length = tagged ? snaplen + VLAN_TAG : snaplen;
            // the sockaddr_ll after the header says where the frame came from
            boolean outgoing = (byte) SLL_PKTTYPE.get(ring, hdr + TPACKET3_HDRLEN) == PACKET_OUTGOING;
            if (!outgoing && length <= MAX_FRAME) {
                int index = cache.allocate();
                if (index < 0) {
                    break; // pool exhausted: leave the frame in the ring for the next burst
                }
                copyFrame(m.wrap(index), hdr, status, snaplen, tagged);
                m.port(port).rxQueue(queue).rssHash((int) V3_RXHASH.get(ring, hdr))
                        .timestamp(Integer.toUnsignedLong((int) V3_SEC.get(ring, hdr)) * 1_000_000_000L
                                + (int) V3_NSEC.get(ring, hdr));
                mbufs[n++] = index;
                packets++;
            } else if (!outgoing) {
                oversized++;
            }
            frameAt = hdr + (int) V3_NEXT_OFFSET.get(ring, hdr);
            if (--framesLeft == 0) {
                releaseBlock();
            }
        }
        return n;
    }

    /** Copies the frame out of the ring; a VLAN tag the kernel moved into the header goes back into the frame. */
    private void copyFrame(Mbuf m, long hdr, int status, int snaplen, boolean tagged) {
        long data = hdr + Short.toUnsignedInt((short) V3_MAC.get(ring, hdr));
        if (!tagged) {
            m.copyFrom(ring, data, snaplen);
            return;
        }
        m.dataOffset(MbufPool.HEADROOM_BYTES).dataLength(snaplen + VLAN_TAG);
        MemorySegment room = m.data();
        long at = m.dataAddress();
        int tpid = (status & TP_STATUS_VLAN_TPID_VALID) != 0
                ? Short.toUnsignedInt((short) V3_VLAN_TPID.get(ring, hdr))
                : ETH_P_8021Q;
        MemorySegment.copy(ring, data, room, at, ETHERNET_ADDRESSES);
        room.set(BE_SHORT, at + ETHERNET_ADDRESSES, (short) tpid);
        room.set(BE_SHORT, at + ETHERNET_ADDRESSES + 2, (short) (int) V3_VLAN_TCI.get(ring, hdr));
        MemorySegment.copy(ring, data + ETHERNET_ADDRESSES, room, at + ETHERNET_ADDRESSES + VLAN_TAG,
                snaplen - ETHERNET_ADDRESSES);
    }

    /** Takes the next block if the kernel has handed it over; an empty (timed-out) block goes straight back. */
    private boolean takeNextBlock() {
        long base = (long) block * blockBytes;
        if (((int) BLOCK_STATUS.getAcquire(ring, base) & TP_STATUS_USER) == 0) {
            return false;
        }
        blockBase = base;
        framesLeft = (int) BLOCK_NUM_PKTS.get(ring, base);
        frameAt = base + (int) BLOCK_OFFSET_TO_FIRST_PKT.get(ring, base);
        if (framesLeft == 0) {
            releaseBlock();
            return false;
        }
        return true;
    }

    private void releaseBlock() {
        BLOCK_STATUS.setRelease(ring, blockBase, TP_STATUS_KERNEL);
        block = block + 1 == blockCount ? 0 : block + 1;
    }

    long packets() {
        return packets;
    }

    /** Frames dropped because they do not fit a data room (GRO/jumbo): turn GRO off on the interface. */
    long oversized() {
        return oversized;
    }
}
