package io.edp.manager.security;

import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/** A lab whose scraper carries no credentials opens the metrics, and only them. */
@TestPropertySource(properties = "edp.metrics.public=true")
class PublicMetricsTest extends ManagerTest {

    @Test
    void edpMetricsPublicOpensPrometheusButNotTheApi() throws Exception {
        mvc.perform(get("/actuator/prometheus")).andExpect(status().isOk())
                .andExpect(content().string(containsString("jvm_memory_used_bytes")));
        mvc.perform(get("/api/v1/hosts")).andExpect(status().isUnauthorized());
    }
}
