package io.edp.manager.host.vm;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;

interface VmRepository extends JpaRepository<Vm, UUID> {

    Page<Vm> findByHostId(UUID hostId, Pageable pageable);

    Optional<Vm> findByIdAndHostId(UUID id, UUID hostId);

    Optional<Vm> findByHostIdAndName(UUID hostId, String name);

    Page<Vm> findByHostIdAndName(UUID hostId, String name, Pageable pageable);
}
