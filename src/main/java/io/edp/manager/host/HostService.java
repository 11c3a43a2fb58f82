package io.edp.manager.host;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.UnaryOperator;

import io.edp.engine.nic.PortConfig;
import io.edp.manager.api.ConflictException;
import io.edp.manager.api.FieldProblem;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** Hosts: the root of the inventory, and the lookup that every feature below a host starts from. */
@Service
@Transactional
public class HostService {

    private final HostRepository hosts;
    private final EngineAdmission budget;
    private final AgentConnections agents;

    HostService(HostRepository hosts, EngineAdmission budget, AgentConnections agents) {
        this.hosts = hosts;
        this.budget = budget;
        this.agents = agents;
    }

    /** The host with this id, or 404. */
    @Transactional(readOnly = true)
    public Host require(UUID hostId) {
        return found(hosts.findById(hostId), hostId);
    }

    /**
     * The host with this id, or 404, locked against changes until the caller's transaction ends: for writes of
     * what sits on the host, which check its NUMA nodes.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Host requireUnchanging(UUID hostId) {
        return found(hosts.findForShare(hostId), hostId);
    }

    /** A host locked for a new NIC, and the engine port id that NIC gets. */
    public record NewPort(Host host, int enginePort) {
    }

    /**
     * The host with this id, or 404, locked FOR UPDATE until the caller's transaction ends, and the lowest engine port
     * id free on it, for a NIC about to be created: the NIC keeps that id for life, so adding or removing another
     * NIC never renumbers it. The lock orders NIC creations on one host, so two never get the same id (the second
     * sees the first's id taken once it commits). 409 when the host has every id of 0..{@value PortConfig#MAX_PORT_ID}.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public NewPort requireForNewPort(UUID hostId) {
        var host = found(hosts.findForUpdate(hostId), hostId);
        var free = hosts.lowestFreeEnginePort(hostId, PortConfig.MAX_PORT_ID);
        if (free == null) {
            throw new ConflictException("Host '" + host.name() + "' has " + (PortConfig.MAX_PORT_ID + 1)
                    + " NICs, as many engine ports as an engine has (ids 0.." + PortConfig.MAX_PORT_ID
                    + "); delete a physical or virtual NIC first");
        }
        return new NewPort(host, free);
    }

    private static Host found(Optional<Host> host, UUID hostId) {
        return host.orElseThrow(() -> new NotFoundException("No host with id " + hostId));
    }

    HostResponse create(HostRequest request) {
        checkNumaNodes(request);
        hosts.idByName(request.name()).ifPresent(existing -> {
            throw duplicateName(request.name(), existing);
        });
        return budget.admit(() -> response(hosts.saveAndFlush(new Host(request))));
    }

    @Transactional(readOnly = true)
    HostResponse get(UUID hostId) {
        return response(require(hostId));
    }

    private HostResponse response(Host host) {
        return HostResponse.of(host, agents.of(List.of(host.id())).getOrDefault(host.id(), AgentStatus.NONE));
    }

    /** Replaces the host with what {@code change} makes of its current state (a PUT body, or a merge patch). */
    HostResponse update(UUID hostId, IfMatch ifMatch, UnaryOperator<HostRequest> change) {
        var host = found(hosts.findForUpdate(hostId), hostId);
        ifMatch.check(host.version());
        var request = change.apply(host.toRequest());
        checkNumaNodes(request);
        hosts.idByName(request.name()).filter(existing -> !existing.equals(hostId)).ifPresent(existing -> {
            throw duplicateName(request.name(), existing);
        });
        var removed = new TreeSet<>(hosts.numaNodesInUse(hostId));
        request.numaNodes().forEach(node -> removed.remove(node.id()));
        if (!removed.isEmpty()) {
            throw new ConflictException("NUMA nodes " + removed + " of host '" + host.name()
                    + "' are used by its NICs or VMs; move or delete those first");
        }
        // a host moved back from AGENT to EMBEDDED reserves the manager's memory again
        return budget.admit(() -> {
            host.apply(request);
            return response(hosts.saveAndFlush(host));
        });
    }

    void delete(UUID hostId, IfMatch ifMatch) {
        var host = found(hosts.findForUpdate(hostId), hostId);
        ifMatch.check(host.version());
        hosts.delete(host);
    }

    /** Node ids are unique, and a CPU core belongs to one node only. */
    private static void checkNumaNodes(HostRequest request) {
        var problems = new ArrayList<FieldProblem>();
        var nodeIds = new HashSet<Integer>();
        var coreOwner = new HashMap<Integer, Integer>();
        for (int i = 0; i < request.numaNodes().size(); i++) {
            var node = request.numaNodes().get(i);
            if (!nodeIds.add(node.id())) {
                problems.add(new FieldProblem("numaNodes[" + i + "].id", "NUMA node " + node.id() + " appears twice"));
            }
            for (var core : node.cpuCores()) {
                var owner = coreOwner.putIfAbsent(core, node.id());
                if (owner != null) {
                    problems.add(new FieldProblem("numaNodes[" + i + "].cpuCores",
                            "CPU core " + core + " already belongs to NUMA node " + owner));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
    }

    private static ConflictException duplicateName(String name, UUID existing) {
        return new ConflictException("A host named '" + name + "' already exists: " + existing,
                "/api/v1/hosts/" + existing);
    }
}
