package io.edp.manager.host.pnic;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;

interface PhysicalNicRepository extends JpaRepository<PhysicalNic, UUID> {

    Page<PhysicalNic> findByHostId(UUID hostId, Pageable pageable);

    Optional<PhysicalNic> findByIdAndHostId(UUID id, UUID hostId);

    Optional<PhysicalNic> findByHostIdAndName(UUID hostId, String name);

    Page<PhysicalNic> findByHostIdAndName(UUID hostId, String name, Pageable pageable);
}
