package io.edp.manager.stats;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.edp.engine.FlowStats;
import io.edp.engine.TopFlows;
import org.springframework.data.domain.Sort;

/**
 * The flows of an engine's top-flows snapshots in a requested order (and of one worker, or all), sorted once per
 * snapshot: a new snapshot comes every 500 ms, while a dashboard may ask thousands of times a second, and sorting
 * a thousand flows costs more than the rest of the answer.
 */
final class SortedTopFlows {

    /** Distinct (host, order, worker) kept at most: beyond it, the map starts again. */
    private static final int MAX_ORDERS = 256;

    private record Key(UUID host, Sort sort, Integer worker) {
    }

    private record Sorted(TopFlows source, List<FlowStats> flows) {
    }

    private final Map<Key, Sorted> sorted = new ConcurrentHashMap<>();

    /**
     * {@code top}'s flows of {@code worker} (null: all) by {@code sort} (properties packets and bytes; unsorted:
     * packets descending), then by worker and flow key.
     */
    List<FlowStats> of(UUID host, TopFlows top, Sort sort, Integer worker) {
        var key = new Key(host, sort, worker);
        var last = sorted.get(key);
        if (last != null && last.source() == top) {
            return last.flows();
        }
        var flows = top.flows().stream().filter(f -> worker == null || f.worker() == worker).sorted(order(sort))
                .toList();
        if (sorted.size() >= MAX_ORDERS) {
            sorted.clear();
        }
        sorted.put(key, new Sorted(top, flows));
        return flows;
    }

    private static Comparator<FlowStats> order(Sort sort) {
        Comparator<FlowStats> order = sort.isUnsorted() ? Comparator.comparingLong(FlowStats::packets).reversed()
                : null;
        for (var o : sort) {
            Comparator<FlowStats> by = Comparator.comparingLong(o.getProperty().equals("bytes")
                    ? FlowStats::bytes : FlowStats::packets);
            by = o.isDescending() ? by.reversed() : by;
            order = order == null ? by : order.thenComparing(by);
        }
        return order.thenComparingInt(FlowStats::worker).thenComparing(FlowStats::flow);
    }
}
