package io.edp.engine.nic.loopback;

import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.NicDriverFactory;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.RxSteering;
import java.util.function.Function;

/**
 * Opens {@link LoopbackNic}s. Options: {@code ringSize} (RX ring slots per queue, power of two, default 1024) and
 * {@code sinkFlows} (flow ids the sink checks for order and loss, default 2^18; 0: count only). RX steering comes
 * from the given function (default: {@link FiveTupleSteering}), so NetQueue or Toeplitz RSS steering plugs in here.
 */
public final class LoopbackDriverFactory implements NicDriverFactory {

    public static final String KIND = "loopback";

    private final Function<PortConfig, RxSteering> steering;

    public LoopbackDriverFactory() {
        this(port -> new FiveTupleSteering(port.rxQueues()));
    }

    public LoopbackDriverFactory(Function<PortConfig, RxSteering> steering) {
        this.steering = steering;
    }

    @Override
    public NicDriver open(PortConfig port, MbufPool pool) {
        int ringSize = option(port, "ringSize", 1024);
        if (ringSize <= 0 || Integer.bitCount(ringSize) != 1) {
            throw new IllegalArgumentException("ports[id=" + port.id()
                    + "].driverOptions.ringSize must be a power of two: " + ringSize);
        }
        int sinkFlows = option(port, "sinkFlows", LoopbackNic.DEFAULT_SINK_FLOWS);
        if (sinkFlows < 0) {
            throw new IllegalArgumentException("ports[id=" + port.id() + "].driverOptions.sinkFlows must be >= 0: "
                    + sinkFlows);
        }
        return new LoopbackNic(port.id(), port.name(), pool, port.rxQueues(), port.txQueues(), ringSize,
                steering.apply(port), sinkFlows);
    }

    private static int option(PortConfig port, String name, int fallback) {
        String value = port.driverOptions().get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("ports[id=" + port.id() + "].driverOptions." + name
                    + " must be an integer: " + value, e);
        }
    }
}
