package io.edp.manager.host.pnic;

import java.util.Objects;
import java.util.UUID;
import java.util.function.UnaryOperator;

import io.edp.manager.api.ConflictException;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.host.Host;
import io.edp.manager.host.HostService;
import io.edp.manager.host.EngineAdmission;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional
class PhysicalNicService {

    private final HostService hosts;
    private final PhysicalNicRepository nics;
    private final EngineAdmission budget;
    private final NicConfinement confinement;

    PhysicalNicService(HostService hosts, PhysicalNicRepository nics, EngineAdmission budget,
                       NicConfinement confinement) {
        this.hosts = hosts;
        this.nics = nics;
        this.budget = budget;
        this.confinement = confinement;
    }

    PhysicalNicResponse create(UUID hostId, PhysicalNicRequest request) {
        var port = hosts.requireForNewPort(hostId);
        check(port.host(), null, request);
        confinement.check(request.driver(), null);
        // a NIC on a NUMA node without one adds a worker when the workers are left to their default
        return budget.admit(() -> PhysicalNicResponse.of(nics.saveAndFlush(
                new PhysicalNic(hostId, port.enginePort(), request))));
    }

    @Transactional(readOnly = true)
    PhysicalNicResponse get(UUID hostId, UUID nicId) {
        return PhysicalNicResponse.of(require(hostId, nicId));
    }

    @Transactional(readOnly = true)
    Page<PhysicalNicResponse> list(UUID hostId, String name, Pageable pageable) {
        hosts.require(hostId);
        return (name == null ? nics.findByHostId(hostId, pageable) : nics.findByHostIdAndName(hostId, name, pageable))
                .map(PhysicalNicResponse::of);
    }

    PhysicalNicResponse update(UUID hostId, UUID nicId, IfMatch ifMatch, UnaryOperator<PhysicalNicRequest> change) {
        var host = hosts.requireUnchanging(hostId);
        var nic = require(hostId, nicId);
        ifMatch.check(nic.version());
        var request = change.apply(nic.toRequest());
        check(host, nicId, request);
        confinement.check(request.driver(), nic.driver());
        return budget.admit(() -> {
            nic.apply(request);
            return PhysicalNicResponse.of(nics.saveAndFlush(nic));
        });
    }

    void delete(UUID hostId, UUID nicId, IfMatch ifMatch) {
        var nic = require(hostId, nicId);
        ifMatch.check(nic.version());
        nics.delete(nic);
    }

    private PhysicalNic require(UUID hostId, UUID nicId) {
        hosts.require(hostId);
        return nics.findByIdAndHostId(nicId, hostId)
                .orElseThrow(() -> new NotFoundException("Host " + hostId + " has no physical NIC with id " + nicId));
    }

    /** The NIC's NUMA node exists on its host, and its name is the host's only NIC of that name. */
    private void check(Host host, UUID nicId, PhysicalNicRequest request) {
        host.requireNumaNode(request.numaNode());
        nics.findByHostIdAndName(host.id(), request.name())
                .filter(other -> !Objects.equals(other.id(), nicId))
                .ifPresent(other -> {
                    throw new ConflictException("Host '" + host.name() + "' already has a physical NIC named '"
                            + request.name() + "'", "/api/v1/hosts/" + host.id() + "/pnics/" + other.id());
                });
    }
}
