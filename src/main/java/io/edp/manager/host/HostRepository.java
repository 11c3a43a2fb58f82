package io.edp.manager.host;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.LockModeType;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;

interface HostRepository extends JpaRepository<Host, UUID> {

    /** SELECT … FOR UPDATE: a host change excludes concurrent changes of what sits on the host. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("SELECT h FROM Host h WHERE h.id = :id")
    Optional<Host> findForUpdate(UUID id);

    /** SELECT … FOR SHARE: NICs and VMs of one host may change together, but not while the host changes. */
    @Lock(LockModeType.PESSIMISTIC_READ)
    @Query("SELECT h FROM Host h WHERE h.id = :id")
    Optional<Host> findForShare(UUID id);

    @Query("SELECT h.id FROM Host h WHERE h.name = :name")
    Optional<UUID> idByName(String name);

    /** NUMA nodes that the host's NICs and VMs sit on; SQL, so that hosts need not know those features' types. */
    @Query(value = """
            SELECT numa_node FROM physical_nic WHERE host_id = :hostId
            UNION
            SELECT numa_node FROM vm WHERE host_id = :hostId
            """, nativeQuery = true)
    List<Integer> numaNodesInUse(UUID hostId);

    /** The lowest engine port id up to {@code max} that none of the host's NICs has (null when all are taken). */
    @Query(value = """
            SELECT min(id) FROM generate_series(0, :max) id
             WHERE id NOT IN (SELECT engine_port FROM physical_nic WHERE host_id = :hostId
                              UNION ALL
                              SELECT engine_port FROM virtual_nic WHERE host_id = :hostId)
            """, nativeQuery = true)
    Integer lowestFreeEnginePort(UUID hostId, int max);
}
