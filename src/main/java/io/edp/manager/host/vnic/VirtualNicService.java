package io.edp.manager.host.vnic;

import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.function.UnaryOperator;

import io.edp.manager.api.ConflictException;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.host.vm.VmService;
import io.edp.manager.host.EngineAdmission;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional
class VirtualNicService {

    private final VmService vms;
    private final VirtualNicRepository nics;
    private final EngineAdmission budget;

    VirtualNicService(VmService vms, VirtualNicRepository nics, EngineAdmission budget) {
        this.vms = vms;
        this.nics = nics;
        this.budget = budget;
    }

    VirtualNicResponse create(UUID hostId, UUID vmId, VirtualNicRequest request) {
        var vm = vms.require(hostId, vmId);
        checkMacIsNew(hostId, null, request);
        // each virtual NIC is a port of the host's engine, with its traffic sink
        return budget.admit(() -> VirtualNicResponse.of(nics.saveAndFlush(new VirtualNic(vm.hostId(), vm.id(),
                request))));
    }

    @Transactional(readOnly = true)
    VirtualNicResponse get(UUID hostId, UUID vmId, UUID nicId) {
        return VirtualNicResponse.of(require(hostId, vmId, nicId));
    }

    @Transactional(readOnly = true)
    Page<VirtualNicResponse> list(UUID hostId, UUID vmId, String mac, Pageable pageable) {
        vms.require(hostId, vmId);
        return (mac == null ? nics.findByVmId(vmId, pageable)
                : nics.findByVmIdAndMac(vmId, mac.toLowerCase(Locale.ROOT), pageable)).map(VirtualNicResponse::of);
    }

    VirtualNicResponse update(UUID hostId, UUID vmId, UUID nicId, IfMatch ifMatch,
                              UnaryOperator<VirtualNicRequest> change) {
        var nic = require(hostId, vmId, nicId);
        ifMatch.check(nic.version());
        var request = change.apply(nic.toRequest());
        checkMacIsNew(hostId, nicId, request);
        nic.apply(request);
        return VirtualNicResponse.of(nics.saveAndFlush(nic));
    }

    void delete(UUID hostId, UUID vmId, UUID nicId, IfMatch ifMatch) {
        var nic = require(hostId, vmId, nicId);
        ifMatch.check(nic.version());
        nics.delete(nic);
    }

    private VirtualNic require(UUID hostId, UUID vmId, UUID nicId) {
        vms.require(hostId, vmId);
        return nics.findByIdAndVmId(nicId, vmId)
                .orElseThrow(() -> new NotFoundException("VM " + vmId + " has no virtual NIC with id " + nicId));
    }

    /** MACs are unique per host: the host's NICs steer frames to VMs by destination MAC. */
    private void checkMacIsNew(UUID hostId, UUID nicId, VirtualNicRequest request) {
        nics.findByHostIdAndMac(hostId, request.normalizedMac())
                .filter(other -> !Objects.equals(other.id(), nicId))
                .ifPresent(other -> {
                    throw new ConflictException("MAC " + request.normalizedMac()
                            + " is already used on this host by the virtual NIC " + other.id() + " of VM "
                            + other.vmId(), "/api/v1/hosts/" + hostId + "/vms/" + other.vmId() + "/vnics/" + other.id());
                });
    }
}
