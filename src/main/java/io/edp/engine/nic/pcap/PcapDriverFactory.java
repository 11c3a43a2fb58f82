package io.edp.engine.nic.pcap;

import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.DriverOptions;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.NicDriverFactory;
import io.edp.engine.nic.PortConfig;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Opens {@link PcapDriver}s for ports of driver {@value #KIND}. Options: {@code rxFile} (pcap to replay),
 * {@code txFile} (pcap to write), at least one of them; {@code replay} = {@code full_speed} (default) or
 * {@code original_timing}; {@code nanosecondOutput} (default false). A pcap port has one RX and one TX queue.
 */
public final class PcapDriverFactory implements NicDriverFactory {

    public static final String KIND = "pcap";

    @Override
    public NicDriver open(PortConfig port, MbufPool pool) {
        DriverOptions options = new DriverOptions(port);
        String rxFile = options.optional("rxFile");
        String txFile = options.optional("txFile");
        if (rxFile == null && txFile == null) {
            throw new IllegalArgumentException(
                    options.field("rxFile") + " or " + options.field("txFile") + " is required");
        }
        String replay = options.optional("replay");
        PcapConfig.Replay mode;
        try {
            mode = replay == null
                    ? PcapConfig.Replay.FULL_SPEED
                    : PcapConfig.Replay.valueOf(replay.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    options.field("replay") + " must be full_speed or original_timing: " + replay, e);
        }
        return PcapDriver.open(new PcapConfig(rxFile == null ? null : Path.of(rxFile),
                txFile == null ? null : Path.of(txFile), mode, options.bool("nanosecondOutput", false)),
                port.id(), pool);
    }
}
