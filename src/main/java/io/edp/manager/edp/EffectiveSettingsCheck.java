package io.edp.manager.edp;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;

import io.edp.manager.api.FieldProblem;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.host.HostInventories;
import org.springframework.stereotype.Component;

/**
 * Whether a host can run its effective settings (its own over its profile's over the defaults): the engine's rules
 * on every field, and workers only on NUMA nodes the host has. Checked when a host's settings or its profile's
 * change, so that no accepted write fails at every push.
 */
@Component
class EffectiveSettingsCheck {

    private final HostInventories hosts;

    EffectiveSettingsCheck(HostInventories hosts) {
        this.hosts = hosts;
    }

    /** What is wrong with host {@code hostId} running {@code effective}, fields under {@code prefix}; empty: fine. */
    List<FieldProblem> problems(UUID hostId, EdpSettings effective, String prefix) {
        var problems = new ArrayList<FieldProblem>();
        try {
            effective.checked(prefix);
        } catch (InvalidRequestException e) {
            problems.addAll(e.errors());
        }
        if (effective.workersPerNumaNode() != null) {
            var nodes = hosts.numaNodes(hostId);
            var unknown = new TreeSet<>(effective.workersPerNumaNode().keySet());
            unknown.removeAll(nodes);
            if (!unknown.isEmpty()) {
                problems.add(new FieldProblem(prefix + "workersPerNumaNode", "NUMA nodes " + unknown
                        + " do not exist on this host (its nodes: " + nodes + ")"));
            }
        }
        return problems;
    }
}
