package io.edp.engine.worker;

import io.edp.engine.StormControl;
import io.edp.engine.slowpath.ForwardingTables;
import io.edp.engine.telemetry.IpfixConfig;

/**
 * What the workers run, published as one immutable value per configuration push: the compiled tables, whether
 * the fast path is on (EDP) and how an idle worker waits, the transmit ports (indexed by port id, null for
 * none) and the flow-cache settings (with the live verifier's sample rate, 0 for off), the IPFIX settings and the
 * storm control on flooded frames. Workers pick it up at the start of an iteration.
 */
public record Generation(int number, ForwardingTables tables, boolean fastPath, boolean busyPoll, TxPort[] txPorts,
        int flowCacheCapacity, long minExpiryMillis, long maxExpiryMillis, int verifierSampleRate,
        IpfixConfig ipfix, StormControl stormControl) {

    public TxPort txPort(int port) {
        return port >= 0 && port < txPorts.length ? txPorts[port] : null;
    }
}
