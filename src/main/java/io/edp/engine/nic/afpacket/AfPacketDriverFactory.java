package io.edp.engine.nic.afpacket;

import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.DriverOptions;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.NicDriverFactory;
import io.edp.engine.nic.PortConfig;

/**
 * Opens {@link AfPacketDriver}s for ports of driver {@value #KIND}. The port's rxQueues and txQueues become RX
 * fanout sockets and TX ring sockets. Options: {@code interface} (required), {@code promiscuous} (default
 * true), {@code qdiscBypass} (default false), {@code rxBlockBytes}, {@code rxBlockCount},
 * {@code rxBlockTimeoutMillis} (default 1), {@code txFrameCount}.
 */
public final class AfPacketDriverFactory implements NicDriverFactory {

    public static final String KIND = "af_packet";

    @Override
    public NicDriver open(PortConfig port, MbufPool pool) {
        DriverOptions options = new DriverOptions(port);
        AfPacketConfig config = new AfPacketConfig(options.required("interface"), port.rxQueues(), port.txQueues(),
                options.positiveInt("rxBlockBytes", AfPacketConfig.DEFAULT_RX_BLOCK_BYTES),
                options.positiveInt("rxBlockCount", AfPacketConfig.DEFAULT_RX_BLOCK_COUNT),
                options.intInRange("rxBlockTimeoutMillis", AfPacketConfig.DEFAULT_RX_BLOCK_TIMEOUT_MILLIS, 1,
                        AfPacketConfig.MAX_RX_BLOCK_TIMEOUT_MILLIS),
                options.positiveInt("txFrameCount", AfPacketConfig.DEFAULT_TX_FRAME_COUNT),
                options.bool("promiscuous", true), options.bool("qdiscBypass", false));
        return AfPacketDriver.open(config, port.id(), pool);
    }
}
