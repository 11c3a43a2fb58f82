package io.edp.manager.host.vnic;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

interface VirtualNicRepository extends JpaRepository<VirtualNic, UUID> {

    Page<VirtualNic> findByVmId(UUID vmId, Pageable pageable);

    Page<VirtualNic> findByVmIdAndMac(UUID vmId, String mac, Pageable pageable);

    Optional<VirtualNic> findByIdAndVmId(UUID id, UUID vmId);

    Optional<VirtualNic> findByHostIdAndMac(UUID hostId, String mac);

    /** The lowest N from 1 that no virtual NIC of the VM has in its port name {@code <vm>-eth<N>}. */
    @Query(value = """
            SELECT min(n) FROM generate_series(1, (SELECT count(*) + 1 FROM virtual_nic WHERE vm_id = :vmId)) n
             WHERE n NOT IN (SELECT port_index FROM virtual_nic WHERE vm_id = :vmId)
            """, nativeQuery = true)
    int lowestFreePortIndex(UUID vmId);
}
