package io.edp.engine.nic.afpacket;

/**
 * One AF_PACKET port: the interface, how many RX queues (one socket each, joined by PACKET_FANOUT hash) and
 * TX queues (one TX ring socket each), and the ring sizes.
 *
 * @param rxBlockBytes size of one TPACKET_V3 RX block: a power of two, at least a page
 * @param rxBlockCount blocks per RX queue; rxBlockBytes × rxBlockCount is the ring each queue maps
 * @param rxBlockTimeoutMillis the block-retire timeout: a block that is not full is handed over (and a worker
 *                     asleep in poll(2) woken) this long after it was opened, so it bounds the latency of a trickle
 * @param txFrameCount 2 KiB frames per TX queue, a power of two
 * @param promiscuous  receive frames for any destination MAC (a data path forwards other hosts' frames)
 * @param qdiscBypass  PACKET_QDISC_BYPASS: hand frames straight to the driver, skipping tc and packet taps
 */
public record AfPacketConfig(String interfaceName, int rxQueues, int txQueues, int rxBlockBytes, int rxBlockCount,
        int rxBlockTimeoutMillis, int txFrameCount, boolean promiscuous, boolean qdiscBypass) {

    public static final int DEFAULT_RX_BLOCK_BYTES = 1 << 18;
    public static final int DEFAULT_RX_BLOCK_COUNT = 64;
    public static final int DEFAULT_RX_BLOCK_TIMEOUT_MILLIS = 1;
    /** The kernel takes any positive timeout; beyond a second a trickle would wait longer than any client. */
    public static final int MAX_RX_BLOCK_TIMEOUT_MILLIS = 1000;
    public static final int DEFAULT_TX_FRAME_COUNT = 1024;
    private static final int PAGE = 4096;
    private static final int MAX_QUEUES = 64;

    public AfPacketConfig {
        if (interfaceName == null || interfaceName.isBlank()) {
            throw new IllegalArgumentException("af_packet port needs an interface name");
        }
        requireRange("rxQueues", rxQueues, 1, MAX_QUEUES);
        requireRange("txQueues", txQueues, 1, MAX_QUEUES);
        if (rxBlockBytes < PAGE || Integer.bitCount(rxBlockBytes) != 1) {
            throw new IllegalArgumentException(
                    "rxBlockBytes must be a power of two of at least " + PAGE + ": " + rxBlockBytes);
        }
        requireRange("rxBlockCount", rxBlockCount, 2, 1 << 16);
        requireRange("rxBlockTimeoutMillis", rxBlockTimeoutMillis, 1, MAX_RX_BLOCK_TIMEOUT_MILLIS);
        if (txFrameCount < 2 || txFrameCount > 1 << 20 || Integer.bitCount(txFrameCount) != 1) {
            throw new IllegalArgumentException("txFrameCount must be a power of two in [2, 2^20]: " + txFrameCount);
        }
    }

    /** {@code queues} RX and TX queues, default rings, promiscuous, through the qdisc. */
    public static AfPacketConfig of(String interfaceName, int queues) {
        return new AfPacketConfig(interfaceName, queues, queues, DEFAULT_RX_BLOCK_BYTES, DEFAULT_RX_BLOCK_COUNT,
                DEFAULT_RX_BLOCK_TIMEOUT_MILLIS, DEFAULT_TX_FRAME_COUNT, true, false);
    }

    private static void requireRange(String what, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " must be in [" + min + ", " + max + "]: " + value);
        }
    }
}
