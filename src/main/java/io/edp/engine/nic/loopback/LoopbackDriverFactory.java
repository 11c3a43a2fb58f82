package io.edp.engine.nic.loopback;

import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.DriverOptions;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.NicDriverFactory;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.RxSteering;
import io.edp.engine.nic.steering.NetQueueConfig;
import io.edp.engine.nic.steering.NetQueueSteering;
import io.edp.engine.nic.steering.ToeplitzHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Opens {@link LoopbackNic}s. Options (docs/engine.md has the table): {@code ringSize} (RX ring slots per queue,
 * power of two, default 512), {@code sinkFlows} (flow ids the sink checks for order and loss, default 2^18; 0:
 * count only) and the RX steering: {@code steering=fivetuple} (default, {@link FiveTupleSteering}) or
 * {@code steering=netqueue} ({@link NetQueueSteering}: queue 0 is the default queue, vNICs get NetQueue filters
 * from the engine's vNIC list) with {@code netqueueFilters}, {@code rssQueues} or {@code rss},
 * {@code toeplitzKey}, {@code symmetric}.
 */
public final class LoopbackDriverFactory implements NicDriverFactory {

    public static final String KIND = "loopback";
    /**
     * As Linux's ixgbe and i40e drivers post by default. The buffers a queue keeps posted are the lines its worker
     * cycles through (frame, headroom, descriptor): 1,024 cost every packet 4-9 ns more (docs/benchmarks.md).
     */
    public static final int DEFAULT_RING_SIZE = 512;
    /** As many MAC filters as an Intel 82599 holds; the queue count usually limits dedicated filters first. */
    public static final int DEFAULT_NETQUEUE_FILTERS = 128;

    private static final List<String> STEERING_KINDS = List.of("fivetuple", "netqueue");
    private static final List<String> NETQUEUE_OPTIONS = List.of("netqueueFilters", "rss", "rssQueues", "toeplitzKey",
            "symmetric");
    private static final Set<String> OPTIONS = Set.of("ringSize", "sinkFlows", "steering", "netqueueFilters", "rss",
            "rssQueues", "toeplitzKey", "symmetric");

    @Override
    public NicDriver open(PortConfig port, MbufPool pool) {
        DriverOptions options = new DriverOptions(port);
        options.requireKnown(OPTIONS);
        int ringSize = options.positiveInt("ringSize", DEFAULT_RING_SIZE);
        if (Integer.bitCount(ringSize) != 1) {
            throw new IllegalArgumentException(options.field("ringSize") + " must be a power of two: " + ringSize);
        }
        int sinkFlows = options.intInRange("sinkFlows", LoopbackNic.DEFAULT_SINK_FLOWS, 0, Integer.MAX_VALUE);
        return new LoopbackNic(port.id(), port.name(), pool, port.rxQueues(), port.txQueues(), ringSize,
                steering(port, options), sinkFlows);
    }

    private static RxSteering steering(PortConfig port, DriverOptions options) {
        if (options.choice("steering", "fivetuple", STEERING_KINDS).equals("fivetuple")) {
            for (String name : NETQUEUE_OPTIONS) {
                if (options.has(name)) {
                    throw new IllegalArgumentException(options.field(name) + " needs steering=netqueue");
                }
            }
            return new FiveTupleSteering(port.rxQueues());
        }
        return new NetQueueSteering(netQueue(port, options));
    }

    /** Queue 0 is the default queue; the RSS pool is the highest-numbered queues; the rest are dedicated queues. */
    private static NetQueueConfig netQueue(PortConfig port, DriverOptions options) {
        int queues = port.rxQueues();
        int filters = options.intInRange("netqueueFilters", DEFAULT_NETQUEUE_FILTERS, 0, 65_536);
        boolean rss = options.bool("rss", false);
        if (rss && options.has("rssQueues")) {
            throw new IllegalArgumentException(options.field("rss") + "=true puts all " + queues
                    + " RX queues in the RSS pool; give it or " + options.field("rssQueues") + ", not both");
        }
        int poolSize = rss ? queues : options.intInRange("rssQueues", 0, 0, queues);
        List<Integer> pool = new ArrayList<>();
        for (int queue = queues - poolSize; queue < queues; queue++) {
            pool.add(queue);
        }
        byte[] key = options.hex("toeplitzKey", ToeplitzHash.KEY_BYTES);
        boolean symmetric = options.bool("symmetric", false);
        if (symmetric && key != null) {
            throw new IllegalArgumentException(options.field("symmetric") + "=true uses the symmetric key; give it or "
                    + options.field("toeplitzKey") + ", not both");
        }
        return NetQueueConfig.withRssPool(queues, filters, pool)
                .withKey(symmetric ? ToeplitzHash.SYMMETRIC_KEY : key == null ? ToeplitzHash.MICROSOFT_KEY : key);
    }
}
