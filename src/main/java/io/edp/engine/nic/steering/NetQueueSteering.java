package io.edp.engine.nic.steering;

import io.edp.engine.nic.RxSteering;
import io.edp.engine.nic.VnicAddress;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The receive-side queue selection of a NIC with NetQueue and Shared NetQueue RSS, in the order the hardware
 * applies it:
 * <ol>
 *   <li>broadcast and multicast frames go to the default queue;</li>
 *   <li>a NetQueue filter on (destination MAC, VLAN) sends a vNIC's frames to its dedicated queue, or into the
 *       shared RSS pool where the Toeplitz hash of the flow picks a queue through the indirection table;</li>
 *   <li>everything else (unknown unicast, vNICs left without a filter) goes to the default queue.</li>
 * </ol>
 * Filters change on the control plane (synchronized, copy-on-write): one by one ({@link #addFilter},
 * {@link #addSharedRssFilter}, {@link #removeFilter}) or all at once from the vNIC list ({@link #vnicsChanged});
 * the receive path reads one volatile snapshot per frame and allocates nothing.
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
        publish();
        return placement;
    }

    public synchronized boolean removeFilter(VnicAddress vnic) {
        if (filters.remove(vnic) == null) {
            return false;
        }
        publish();
        return true;
    }

    /**
     * Follows the vNICs behind this NIC, in list order: filters of vNICs that are gone are removed; a vNIC without
     * a filter gets a free dedicated queue (lowest first), else — no dedicated queue left — a filter into the
     * shared RSS pool, as long as the filter limit allows; the rest stay on the default queue and are placed when
     * a filter frees up. A vNIC that has a filter keeps it, so no flow changes queue because another vNIC came or
     * went.
     */
    @Override
    public synchronized void vnicsChanged(List<VnicAddress> vnics) {
        filters.keySet().retainAll(new HashSet<>(vnics));
        Set<Integer> taken = new HashSet<>(filters.values());
        for (VnicAddress vnic : vnics) {
            if (filters.size() >= config.filterLimit()) {
                break;
            }
            if (!filters.containsKey(vnic)) {
                int queue = freeDedicatedQueue(taken);
                if (queue >= 0) {
                    filters.put(vnic, queue);
                    taken.add(queue);
                } else if (!config.rssQueues().isEmpty()) {
                    filters.put(vnic, FilterTable.SHARED_RSS);
                }
            }
        }
        publish();
    }

    private int freeDedicatedQueue(Set<Integer> taken) {
        for (int queue = 0; queue < config.rxQueues(); queue++) {
            if (queue != config.defaultQueue() && !config.rssQueues().contains(queue) && !taken.contains(queue)) {
                return queue;
            }
        }
        return -1;
    }

    private void publish() {
        table = new FilterTable(filters);
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
