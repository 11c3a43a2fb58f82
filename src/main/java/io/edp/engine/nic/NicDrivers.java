package io.edp.engine.nic;

import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.afpacket.AfPacketDriverFactory;
import io.edp.engine.nic.loopback.LoopbackDriverFactory;
import io.edp.engine.nic.pcap.PcapDriverFactory;
import java.util.Map;
import java.util.TreeMap;

/** The driver kinds an engine can open ports with, by name; immutable, {@link #with} returns a copy. */
public final class NicDrivers {

    private final Map<String, NicDriverFactory> factories;

    private NicDrivers(Map<String, NicDriverFactory> factories) {
        this.factories = Map.copyOf(factories);
    }

    /** Just the in-memory {@code loopback} driver. */
    public static NicDrivers withLoopback() {
        return new NicDrivers(Map.of(LoopbackDriverFactory.KIND, new LoopbackDriverFactory()));
    }

    /** Every driver kind of the engine: {@code loopback}, {@code af_packet} (real interfaces) and {@code pcap}. */
    public static NicDrivers standard() {
        return withLoopback().with(AfPacketDriverFactory.KIND, new AfPacketDriverFactory())
                .with(PcapDriverFactory.KIND, new PcapDriverFactory());
    }

    public NicDrivers with(String kind, NicDriverFactory factory) {
        Map<String, NicDriverFactory> copy = new TreeMap<>(factories);
        copy.put(kind, factory);
        return new NicDrivers(copy);
    }

    public NicDriver open(PortConfig port, MbufPool pool) {
        NicDriverFactory factory = factories.get(port.driver());
        if (factory == null) {
            throw new IllegalArgumentException("ports[id=" + port.id() + "].driver: unknown driver '" + port.driver()
                    + "' (known: " + new TreeMap<>(factories).keySet() + ")");
        }
        return factory.open(port, pool);
    }
}
