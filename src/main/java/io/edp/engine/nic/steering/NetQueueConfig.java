package io.edp.engine.nic.steering;

import java.util.HexFormat;
import java.util.List;

/**
 * How a NIC's RX queues are split: one default queue (broadcast, multicast, unknown unicast), a shared RSS pool
 * (Shared NetQueue RSS), the rest available to NetQueue filters as dedicated queues. The default queue may be
 * part of the pool, as with ESXi's default-queue RSS.
 *
 * @param rxQueues           RX queues of the NIC
 * @param defaultQueue       queue of broadcast, multicast and unfiltered unicast frames
 * @param filterLimit        NetQueue filters the NIC holds; more are refused and the vNIC stays on the default queue
 * @param rssQueues          the shared RSS pool (may be empty)
 * @param rssKeyHex          40-byte Toeplitz key in hex; {@link ToeplitzHash#SYMMETRIC_KEY} makes RSS symmetric
 * @param hashPorts          hash TCP/UDP ports with the addresses (4-tuple) or addresses only (2-tuple)
 * @param indirectionEntries size of the RSS indirection table, a power of two (NICs use 64 to 512)
 */
public record NetQueueConfig(int rxQueues, int defaultQueue, int filterLimit, List<Integer> rssQueues,
                             String rssKeyHex, boolean hashPorts, int indirectionEntries) {

    public static final int DEFAULT_INDIRECTION_ENTRIES = 128;

    public NetQueueConfig {
        rssQueues = List.copyOf(rssQueues);
        if (rxQueues < 1) {
            throw new IllegalArgumentException("a NIC has at least one RX queue");
        }
        checkQueue(defaultQueue, rxQueues, "default queue");
        for (int queue : rssQueues) {
            checkQueue(queue, rxQueues, "RSS queue");
        }
        if (rssQueues.size() != rssQueues.stream().distinct().count()) {
            throw new IllegalArgumentException("RSS pool lists a queue twice: " + rssQueues);
        }
        if (filterLimit < 0) {
            throw new IllegalArgumentException("filter limit must be >= 0");
        }
        if (HexFormat.of().parseHex(rssKeyHex).length != ToeplitzHash.KEY_BYTES) {
            throw new IllegalArgumentException("the RSS key has " + ToeplitzHash.KEY_BYTES + " bytes");
        }
        if (indirectionEntries < 1 || Integer.bitCount(indirectionEntries) != 1) {
            throw new IllegalArgumentException("indirection entries must be a power of two: " + indirectionEntries);
        }
    }

    /** Queue 0 as default queue, the given pool for RSS, Microsoft's key, 4-tuple hashing, 128 entries. */
    public static NetQueueConfig withRssPool(int rxQueues, int filterLimit, List<Integer> rssQueues) {
        return new NetQueueConfig(rxQueues, 0, filterLimit, rssQueues,
                HexFormat.of().formatHex(ToeplitzHash.MICROSOFT_KEY), true, DEFAULT_INDIRECTION_ENTRIES);
    }

    public NetQueueConfig withKey(byte[] key) {
        return new NetQueueConfig(rxQueues, defaultQueue, filterLimit, rssQueues, HexFormat.of().formatHex(key),
                hashPorts, indirectionEntries);
    }

    private static void checkQueue(int queue, int rxQueues, String what) {
        if (queue < 0 || queue >= rxQueues) {
            throw new IllegalArgumentException(what + " " + queue + " is not one of the NIC's " + rxQueues + " queues");
        }
    }
}
