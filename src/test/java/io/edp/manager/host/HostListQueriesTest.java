package io.edp.manager.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import io.edp.manager.ManagerTest;
import io.edp.manager.TestDatabase;
import jakarta.persistence.EntityManagerFactory;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A page of hosts costs a fixed number of SQL statements, however many hosts it shows: the page, the total, and
 * one statement each for the page's NUMA nodes and labels (batch fetching), never one per host. Counted with
 * Hibernate's statistics, switched on for the request only. The hosts are inserted in SQL, so that no push runs
 * beside the request.
 */
class HostListQueriesTest extends ManagerTest {

    private static final int HOSTS = 100;

    @Autowired
    EntityManagerFactory entityManagers;
    @Autowired
    JdbcTemplate jdbc;

    private Statistics statistics;

    @BeforeEach
    void inventory() {
        for (int i = 0; i < HOSTS; i++) {
            var id = UUID.randomUUID();
            jdbc.update("INSERT INTO host (id, name, management_address, version) VALUES (?, ?, ?, 0)", id,
                    "esx-%03d".formatted(i), "192.0.2." + i);
            jdbc.update("INSERT INTO host_numa_node (host_id, node_id, cpu_cores) VALUES (?, 0, '{0,1}'), "
                    + "(?, 1, '{2,3}')", id, id);
            jdbc.update("INSERT INTO host_label (host_id, name, value) VALUES (?, 'rack', ?), (?, 'role', 'edge')",
                    id, "r" + i % 10, id);
        }
        statistics = entityManagers.unwrap(SessionFactory.class).getStatistics();
    }

    @AfterEach
    void statisticsOffAndNoHostsLeft() {
        statistics.setStatisticsEnabled(false);
        TestDatabase.empty(jdbc); // contexts of other test classes share the database and its engines' budget
    }

    @Test
    void aFullPageOfAHundredHostsTakesFourStatements() throws Exception {
        assertThat(statements("/api/v1/hosts?size=100")).isEqualTo(4);
    }

    @Test
    void aPageAfterTheFirstAndAFilteredPageTakeNoMore() throws Exception {
        assertThat(statements("/api/v1/hosts?size=30&page=2&sort=managementAddress,desc")).isEqualTo(4);
        // a last page that is not full needs no count
        assertThat(statements("/api/v1/hosts?size=100&label=rack=r3&label=role")).isEqualTo(3);
    }

    @Test
    void thePageShowsEveryHostsNodesAndLabels() throws Exception {
        mvc.perform(get("/api/v1/hosts?size=100").with(viewer()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items.length()").value(HOSTS))
                .andExpect(jsonPath("$.page.totalElements").value(HOSTS))
                .andExpect(jsonPath("$.items[7].name").value("esx-007"))
                .andExpect(jsonPath("$.items[7].numaNodes[1].id").value(1))
                .andExpect(jsonPath("$.items[7].numaNodes[1].cpuCores[1]").value(3))
                .andExpect(jsonPath("$.items[7].labels.rack").value("r7"))
                .andExpect(jsonPath("$.items[99].labels.role").value("edge"));
    }

    /** The SQL statements Hibernate prepared while serving {@code GET path}. */
    private long statements(String path) throws Exception {
        statistics.clear();
        statistics.setStatisticsEnabled(true);
        mvc.perform(get(path).with(viewer())).andExpect(status().isOk());
        statistics.setStatisticsEnabled(false);
        return statistics.getPrepareStatementCount();
    }
}
