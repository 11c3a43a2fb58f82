package io.edp.manager.host.vm;

import java.util.Objects;
import java.util.UUID;
import java.util.function.UnaryOperator;

import io.edp.manager.api.ConflictException;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.host.Host;
import io.edp.manager.host.HostService;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** VMs of a host, and the lookup that their virtual NICs start from. */
@Service
@Transactional
public class VmService {

    private final HostService hosts;
    private final VmRepository vms;

    VmService(HostService hosts, VmRepository vms) {
        this.hosts = hosts;
        this.vms = vms;
    }

    /** The VM with this id on this host, or 404. */
    @Transactional(readOnly = true)
    public Vm require(UUID hostId, UUID vmId) {
        hosts.require(hostId);
        return vms.findByIdAndHostId(vmId, hostId)
                .orElseThrow(() -> new NotFoundException("Host " + hostId + " has no VM with id " + vmId));
    }

    VmResponse create(UUID hostId, VmRequest request) {
        check(hosts.requireUnchanging(hostId), null, request);
        return VmResponse.of(vms.saveAndFlush(new Vm(hostId, request)));
    }

    @Transactional(readOnly = true)
    VmResponse get(UUID hostId, UUID vmId) {
        return VmResponse.of(require(hostId, vmId));
    }

    @Transactional(readOnly = true)
    Page<VmResponse> list(UUID hostId, String name, Pageable pageable) {
        hosts.require(hostId);
        return (name == null ? vms.findByHostId(hostId, pageable) : vms.findByHostIdAndName(hostId, name, pageable))
                .map(VmResponse::of);
    }

    VmResponse update(UUID hostId, UUID vmId, IfMatch ifMatch, UnaryOperator<VmRequest> change) {
        var host = hosts.requireUnchanging(hostId);
        var vm = require(hostId, vmId);
        ifMatch.check(vm.version());
        var request = change.apply(vm.toRequest());
        check(host, vmId, request);
        vm.apply(request);
        return VmResponse.of(vms.saveAndFlush(vm));
    }

    void delete(UUID hostId, UUID vmId, IfMatch ifMatch) {
        var vm = require(hostId, vmId);
        ifMatch.check(vm.version());
        vms.delete(vm);
    }

    /** The VM's NUMA node exists on its host, and its name is the host's only VM of that name. */
    private void check(Host host, UUID vmId, VmRequest request) {
        host.requireNumaNode(request.numaNode());
        vms.findByHostIdAndName(host.id(), request.name())
                .filter(other -> !Objects.equals(other.id(), vmId))
                .ifPresent(other -> {
                    throw new ConflictException("Host '" + host.name() + "' already has a VM named '"
                            + request.name() + "'", "/api/v1/hosts/" + host.id() + "/vms/" + other.id());
                });
    }
}
