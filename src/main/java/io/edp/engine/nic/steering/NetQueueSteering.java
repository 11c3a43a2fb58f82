package io.edp.engine.nic.steering;

import io.edp.engine.nic.RxSteering;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The receive-side queue selection of a NIC with NetQueue and Shared NetQueue RSS, in the order the hardware
 * applies it:
 * <ol>
 *   <li>broadcast and multicast frames go to the default queue;</li>
 *   <li>a NetQueue filter on (destination MAC, VLAN) sends a vNIC's frames to its dedicated queue, or into the
 *       shared RSS pool where the Toeplitz hash of the flow picks a queue through the indirection table;</li>
 *   <li>everything else (unknown unicast, vNICs left without a filter) goes to the default queue.</li>
 * </ol>
 * Filters change on the control plane (synchronized, copy-on-write); the receive path reads one volatile
 * snapshot per frame and allocates nothing.
 */
public final class NetQueueSteering implements RxSteering {

    private final NetQueueConfig config;
    private final RssHash rss;
    private final int[] indirection;
    private final Map<VnicAddress, Integer> filters = new HashMap<>();
    private volatile FilterTable table = new FilterTable(Map.of());

    public NetQueueSteering(NetQueueConfig config) {
        this.config = config;
        this.rss = new RssHash(new ToeplitzHash(HexFormat.of().parseHex(config.rssKeyHex())), config.hashPorts());
        this.indirection = new int[config.indirectionEntries()];
        for (int entry = 0; entry < indirection.length; entry++) {
            indirection[entry] = config.rssQueues().isEmpty()
                    ? config.defaultQueue()
                    : config.rssQueues().get(entry % config.rssQueues().size());
        }
    }

    public NetQueueConfig config() {
        return config;
    }

    /** Steers the vNIC's unicast frames to {@code rxQueue}, which must be neither the default queue nor in the pool. */
    public synchronized FilterPlacement addFilter(VnicAddress vnic, int rxQueue) {
        if (rxQueue < 0 || rxQueue >= config.rxQueues() || rxQueue == config.defaultQueue()
                || config.rssQueues().contains(rxQueue)) {
            throw new IllegalArgumentException("queue " + rxQueue + " cannot be a dedicated NetQueue queue");
        }
        return install(vnic, rxQueue, FilterPlacement.DEDICATED_QUEUE);
    }

    /** Steers the vNIC's unicast frames into the shared RSS pool. */
    public synchronized FilterPlacement addSharedRssFilter(VnicAddress vnic) {
        if (config.rssQueues().isEmpty()) {
            throw new IllegalStateException("this NIC has no shared RSS pool");
        }
        return install(vnic, FilterTable.SHARED_RSS, FilterPlacement.SHARED_RSS);
    }

    private FilterPlacement install(VnicAddress vnic, int target, FilterPlacement placement) {
        if (!filters.containsKey(vnic) && filters.size() >= config.filterLimit()) {
            return FilterPlacement.DEFAULT_QUEUE;
        }
        filters.put(vnic, target);
        table = new FilterTable(filters);
        return placement;
    }

    public synchronized boolean removeFilter(VnicAddress vnic) {
        if (filters.remove(vnic) == null) {
            return false;
        }
        table = new FilterTable(filters);
        return true;
    }

    public synchronized int filterCount() {
        return filters.size();
    }

    /** A copy of the indirection table: entry {@code hash & (entries - 1)} names the queue. */
    public int[] indirectionTable() {
        return indirection.clone();
    }

    @Override
    public int rxQueue(MemorySegment frame, long offset, int length) {
        if (length < EthernetFrame.HEADER_BYTES || EthernetFrame.isGroupAddress(frame, offset)) {
            return config.defaultQueue();
        }
        int target = table.lookup(EthernetFrame.destinationMac(frame, offset),
                EthernetFrame.vlan(frame, offset, length));
        return switch (target) {
            case FilterTable.NO_FILTER -> config.defaultQueue();
            case FilterTable.SHARED_RSS -> indirection[rss.hash(frame, offset, length) & (indirection.length - 1)];
            default -> target;
        };
    }

    @Override
    public int rxHash(MemorySegment frame, long offset, int length) {
        return length < EthernetFrame.HEADER_BYTES ? 0 : rss.hash(frame, offset, length);
    }
}
