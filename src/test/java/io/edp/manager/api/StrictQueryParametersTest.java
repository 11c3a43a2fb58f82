package io.edp.manager.api;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

class StrictQueryParametersTest extends ManagerTest {

    @Test
    void aQueryParameterTheOperationDoesNotTakeIsA400NamingItAndWhatItTakes() throws Exception {
        createHost("esx-01");
        mvc.perform(get("/api/v1/hosts?nmae=esx-01&size=5").with(viewer()))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.errors.length()").value(1))
                .andExpect(jsonPath("$.errors[0].field").value("nmae"))
                .andExpect(jsonPath("$.errors[0].message").value(
                        "unknown query parameter; this operation takes [label, name, page, size, sort]"));
        mvc.perform(post("/api/v1/hosts?validate=true").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content(hostJson("esx-02")))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].message").value(
                        "unknown query parameter; this operation takes [dryRun]"));
        // nothing was created by the refused write
        mvc.perform(get("/api/v1/hosts").with(viewer())).andExpect(jsonPath("$.page.totalElements").value(1));
    }

    @Test
    void theParametersAnOperationTakesPass() throws Exception {
        var hostId = createHost("esx-01");
        mvc.perform(get("/api/v1/hosts?page=0&size=5&sort=name,desc").with(viewer())).andExpect(status().isOk());
        mvc.perform(get("/api/v1/hosts/" + hostId + "/realization?wait=1s&generation=1").with(viewer()))
                .andExpect(status().isOk());
        mvc.perform(get("/actuator/health/liveness?verbose=1")).andExpect(status().isOk());
    }
}
