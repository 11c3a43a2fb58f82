package io.edp.manager.host.vnic;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;

interface VirtualNicRepository extends JpaRepository<VirtualNic, UUID> {

    Page<VirtualNic> findByVmId(UUID vmId, Pageable pageable);

    Page<VirtualNic> findByVmIdAndMac(UUID vmId, String mac, Pageable pageable);

    Optional<VirtualNic> findByIdAndVmId(UUID id, UUID vmId);

    Optional<VirtualNic> findByHostIdAndMac(UUID hostId, String mac);
}
