package io.edp.engine.nic;

import io.edp.engine.EngineConfig;
import io.edp.engine.Mode;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.Route;
import io.edp.engine.slowpath.Verdict;
import java.util.Set;

/**
 * The engine configuration of the end-to-end driver tests: EDP_STANDARD, frames from port 1 to the router MAC
 * for 10.0.1.0/24 routed out of port 2, and a firewall DROP rule for the UDP flow from one source port.
 */
final class RoutedWithOneFlowBlocked {

    private RoutedWithOneFlowBlocked() {
    }

    static EngineConfig config(PortConfig ingress, PortConfig egress, int blockedSourcePort) {
        return EngineConfig.builder()
                .mode(Mode.EDP_STANDARD)
                .port(ingress)
                .port(egress)
                .route(new Route("10.0.1.0/24", "02:00:00:00:00:99", egress.id(), 0))
                .rule(new FirewallRule(1, "10.0.0.0/24", "10.0.1.0/24", 17, PortRange.of(blockedSourcePort),
                        PortRange.ANY, Set.of(), Verdict.DROP))
                .build();
    }
}
