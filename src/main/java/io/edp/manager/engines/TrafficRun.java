package io.edp.manager.engines;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import io.edp.engine.nic.loopback.TrafficProfile;

/**
 * A traffic run on an engine's loopback NIC and its counters since it started: frames sent by the generator,
 * received by the engine's sinks, lost and reordered at them, and the engine's drops by reason (those that changed);
 * with the profile it runs, so that whoever reads the engine (any replica) can say what the run was asked to do.
 */
public record TrafficRun(String nic, boolean running, Instant startedAt, Instant takenAt, long sent, long received,
                         Map<String, Long> dropped, long lost, long reordered, TrafficProfile profile) {

    public TrafficRun {
        dropped = Collections.unmodifiableSortedMap(new TreeMap<>(dropped)); // by reason, as the API lists them
    }
}
