package io.edp.engine.nic.loopback;

import static io.edp.engine.packet.NetworkOrder.U16;

import io.edp.engine.nic.RxSteering;
import io.edp.engine.packet.FlowKey;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The loopback NIC's default steering: a plain hash of the IP 5-tuple modulo the queue count, so every frame of
 * a flow lands on the same queue (non-IP frames go to queue 0). Fragments hash by addresses and protocol alone, as
 * RSS does, so every fragment of a datagram lands on one queue. Toeplitz RSS and NetQueue filters are other
 * {@link RxSteering} implementations.
 */
public record FiveTupleSteering(int queues) implements RxSteering {

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    public FiveTupleSteering {
        if (queues <= 0) {
            throw new IllegalArgumentException("queues must be positive: " + queues);
        }
    }

    @Override
    public int rxQueue(MemorySegment frame, long offset, int length) {
        return queues == 1 ? 0 : Math.floorMod(rxHash(frame, offset, length), queues);
    }

    @Override
    public int rxHash(MemorySegment frame, long offset, int length) {
        int at = 12;
        int type = length >= 14 ? frame.get(U16, offset + at) & 0xFFFF : 0;
        while ((type == 0x8100 || type == 0x88A8) && length >= at + 6) {
            at += 4;
            type = frame.get(U16, offset + at) & 0xFFFF;
        }
        long l3 = offset + at + 2;
        long h;
        if (type == 0x0800 && length >= at + 2 + 24) {
            int ihl = (frame.get(ValueLayout.JAVA_BYTE, l3) & 0xF) * 4;
            h = frame.get(LONG, l3 + 12) * 31 + frame.get(ValueLayout.JAVA_BYTE, l3 + 9);
            boolean fragment = (frame.get(U16, l3 + 6) & 0x3FFF) != 0;
            if (!fragment && length >= at + 2 + ihl + 4) {
                h = h * 31 + frame.get(INT, l3 + ihl);
            }
        } else if (type == 0x86DD && length >= at + 2 + 44) {
            h = frame.get(LONG, l3 + 8) ^ frame.get(LONG, l3 + 16) * 31 ^ frame.get(LONG, l3 + 24) * 961
                    ^ frame.get(LONG, l3 + 32) * 29791;
            if (frame.get(ValueLayout.JAVA_BYTE, l3 + 6) != 44) { // a fragment header differs between fragments
                h ^= frame.get(INT, l3 + 40);
            }
        } else {
            return 0;
        }
        // a product alone carries bits only upward: the destination's last octet (bits 56..63 of the word read)
        // never reached the bits that pick the queue, and flows to one /24 all landed on one queue
        return (int) (FlowKey.mix(h) >>> 32);
    }
}
