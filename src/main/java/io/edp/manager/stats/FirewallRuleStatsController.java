package io.edp.manager.stats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;

import io.edp.manager.firewall.FirewallRuleService;
import io.edp.manager.engines.HostEngines;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "Distributed firewall")
class FirewallRuleStatsController {

    private final FirewallRuleService rules;
    private final HostEngines engines;

    FirewallRuleStatsController(FirewallRuleService rules, HostEngines engines) {
        this.rules = rules;
        this.engines = engines;
    }

    @GetMapping(path = "/api/v1/firewall/rules/{ruleId}/stats", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "getFirewallRuleStats", summary = "A firewall rule's counters over every host",
            description = "Packets, bytes and connections the rule decided (fast-path hits included), summed over "
                    + "each host's workers and over the hosts, with each host's share. Counters belong to the rule's "
                    + "id: a push that keeps the rule (moved or edited) keeps them, deleting the rule drops them. "
                    + "404 for an unknown rule.")
    FirewallRuleStatsResponse stats(@PathVariable long ruleId) {
        rules.get(ruleId); // 404 for an unknown rule
        var takenAt = Instant.now();
        var hosts = new ArrayList<FirewallRuleStatsResponse.HostCounters>();
        for (UUID hostId : new TreeSet<>(engines.hosts())) {
            engines.engine(hostId).flatMap(e -> e.ruleStats().stream().filter(r -> r.ruleId() == ruleId).findFirst())
                    .ifPresent(r -> hosts.add(new FirewallRuleStatsResponse.HostCounters(hostId, r.packets(),
                            r.bytes(), r.connections())));
        }
        return new FirewallRuleStatsResponse(ruleId, takenAt,
                hosts.stream().mapToLong(FirewallRuleStatsResponse.HostCounters::packets).sum(),
                hosts.stream().mapToLong(FirewallRuleStatsResponse.HostCounters::bytes).sum(),
                hosts.stream().mapToLong(FirewallRuleStatsResponse.HostCounters::connections).sum(),
                List.copyOf(hosts));
    }
}
