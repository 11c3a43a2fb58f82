package io.edp.manager.realization;

import java.util.List;
import java.util.UUID;

import jakarta.persistence.EntityManager;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The hosts whose desired generation the current transaction changed, and to what: the rows of
 * {@code host_realization} that a trigger stamped with this transaction's id (migration V5_4). One scan of that
 * table, whatever the number of hosts a write bumped.
 */
@Component
public class BumpedHosts {

    /** A host and the desired generation a write left it at. */
    public record HostGeneration(UUID hostId, long generation) {
    }

    private final JdbcClient jdbc;
    private final EntityManager entities;

    BumpedHosts(JdbcClient jdbc, EntityManager entities) {
        this.jdbc = jdbc;
        this.entities = entities;
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public List<HostGeneration> inThisTransaction() {
        entities.flush(); // JPA's pending changes fire their triggers first
        return jdbc.sql("""
                        SELECT host_id, desired_generation FROM host_realization
                         WHERE bumped_in = pg_current_xact_id_if_assigned() ORDER BY host_id""")
                .query((rs, row) -> new HostGeneration(rs.getObject(1, UUID.class), rs.getLong(2))).list();
    }
}
