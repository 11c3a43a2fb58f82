package io.edp.manager.host.vnic;

import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.function.UnaryOperator;

import io.edp.manager.api.ConflictException;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.host.HostService;
import io.edp.manager.host.vm.Vm;
import io.edp.manager.host.vm.VmService;
import io.edp.manager.host.EngineAdmission;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional
class VirtualNicService {

    private final HostService hosts;
    private final VmService vms;
    private final VirtualNicRepository nics;
    private final EngineAdmission budget;

    VirtualNicService(HostService hosts, VmService vms, VirtualNicRepository nics, EngineAdmission budget) {
        this.hosts = hosts;
        this.vms = vms;
        this.nics = nics;
        this.budget = budget;
    }

    VirtualNicResponse create(UUID hostId, UUID vmId, VirtualNicRequest request) {
        // the host lock also orders the creations of the VM's NICs, which take the lowest free N of <vm>-eth<N>
        var port = hosts.requireForNewPort(hostId);
        var vm = vms.require(hostId, vmId);
        checkMacIsNew(hostId, null, request);
        // each virtual NIC is a port of the host's engine, with its traffic sink
        return budget.admit(() -> VirtualNicResponse.of(nics.saveAndFlush(new VirtualNic(vm.hostId(), vm.id(),
                port.enginePort(), nics.lowestFreePortIndex(vm.id()), request)), vm));
    }

    @Transactional(readOnly = true)
    VirtualNicResponse get(UUID hostId, UUID vmId, UUID nicId) {
        var vm = vms.require(hostId, vmId);
        return VirtualNicResponse.of(require(vm, nicId), vm);
    }

    @Transactional(readOnly = true)
    Page<VirtualNicResponse> list(UUID hostId, UUID vmId, String mac, Pageable pageable) {
        var vm = vms.require(hostId, vmId);
        return (mac == null ? nics.findByVmId(vmId, pageable)
                : nics.findByVmIdAndMac(vmId, mac.toLowerCase(Locale.ROOT), pageable))
                .map(nic -> VirtualNicResponse.of(nic, vm));
    }

    VirtualNicResponse update(UUID hostId, UUID vmId, UUID nicId, IfMatch ifMatch,
                              UnaryOperator<VirtualNicRequest> change) {
        var vm = vms.require(hostId, vmId);
        var nic = require(vm, nicId);
        ifMatch.check(nic.version());
        var request = change.apply(nic.toRequest());
        checkMacIsNew(hostId, nicId, request);
        nic.apply(request);
        return VirtualNicResponse.of(nics.saveAndFlush(nic), vm);
    }

    void delete(UUID hostId, UUID vmId, UUID nicId, IfMatch ifMatch) {
        var nic = require(vms.require(hostId, vmId), nicId);
        ifMatch.check(nic.version());
        nics.delete(nic);
    }

    private VirtualNic require(Vm vm, UUID nicId) {
        return nics.findByIdAndVmId(nicId, vm.id())
                .orElseThrow(() -> new NotFoundException("VM " + vm.id() + " has no virtual NIC with id " + nicId));
    }

    /** MACs are unique per host: the host's NICs steer frames to VMs by destination MAC. */
    private void checkMacIsNew(UUID hostId, UUID nicId, VirtualNicRequest request) {
        nics.findByHostIdAndMac(hostId, request.normalizedMac())
                .filter(other -> !Objects.equals(other.id(), nicId))
                .ifPresent(other -> {
                    throw new ConflictException("MAC " + request.normalizedMac()
                            + " is already used on this host by the virtual NIC " + other.id() + " of VM "
                            + other.vmId(),
                            "/api/v1/hosts/" + hostId + "/vms/" + other.vmId() + "/vnics/" + other.id());
                });
    }
}
