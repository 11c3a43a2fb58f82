package io.edp.manager.security;

import static org.hamcrest.Matchers.containsString;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

class SecurityTest extends ManagerTest {

    @Test
    void noCredentialsIs401ProblemDetailsWithABasicChallenge() throws Exception {
        mvc.perform(get("/api/v1/hosts"))
                .andExpect(status().isUnauthorized())
                .andExpect(header().string("WWW-Authenticate", containsString("Basic")))
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(401));
    }

    @Test
    void aWrongPasswordIs401ProblemDetails() throws Exception {
        mvc.perform(get("/api/v1/hosts").with(httpBasic(OPERATOR, "wrong")))
                .andExpect(status().isUnauthorized())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON));
    }

    @Test
    void unknownApiPathsNeedCredentialsToo() throws Exception {
        mvc.perform(get("/api/v1/nope")).andExpect(status().isUnauthorized());
    }

    @Test
    void aViewerMayRead() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(get("/api/v1/hosts/" + id).with(viewer())).andExpect(status().isOk());
        mvc.perform(get("/api/v1/hosts").with(viewer())).andExpect(status().isOk());
    }

    @Test
    void aViewersPutIs403ProblemDetails() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(put("/api/v1/hosts/" + id).with(viewer()).contentType(MediaType.APPLICATION_JSON)
                        .content(hostJson("esx-01")))
                .andExpect(status().isForbidden())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(403));
    }

    @Test
    void aViewerMayNeitherCreateNorDelete() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(post("/api/v1/hosts").with(viewer()).contentType(MediaType.APPLICATION_JSON)
                .content(hostJson("esx-02"))).andExpect(status().isForbidden());
        mvc.perform(delete("/api/v1/hosts/" + id).with(viewer())).andExpect(status().isForbidden());
    }

    @Test
    void probesNeedNoCredentialsAndShowNoDetailsWithout() throws Exception {
        mvc.perform(get("/actuator/health/liveness")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"));
        mvc.perform(get("/actuator/health/readiness")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"))
                .andExpect(jsonPath("$.components").doesNotExist());
        mvc.perform(get("/actuator/health")).andExpect(status().isOk())
                .andExpect(jsonPath("$.components").doesNotExist());
    }

    @Test
    void healthDetailsAreShownToAnAccount() throws Exception {
        mvc.perform(get("/actuator/health/readiness").with(viewer()))
                .andExpect(jsonPath("$.components.db.status").value("UP"));
        mvc.perform(get("/actuator/health").with(viewer()))
                .andExpect(jsonPath("$.components.db.details.database").value("PostgreSQL"));
    }

    @Test
    void prometheusNeedsAViewer() throws Exception {
        mvc.perform(get("/actuator/prometheus"))
                .andExpect(status().isUnauthorized())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON));
        mvc.perform(get("/actuator/prometheus").with(viewer())).andExpect(status().isOk())
                .andExpect(content().string(containsString("jvm_memory_used_bytes")));
    }

    @Test
    void theApiContractAndSwaggerUiNeedNoCredentials() throws Exception {
        mvc.perform(get("/v3/api-docs")).andExpect(status().isOk())
                .andExpect(jsonPath("$.components.securitySchemes.basicAuth.scheme").value("basic"));
        mvc.perform(get("/swagger-ui/index.html")).andExpect(status().isOk());
    }

    @Test
    void swaggerUiKeepsNoCredentialsInTheBrowsersStorage() throws Exception {
        // persistAuthorization would keep the Basic credentials in localStorage, readable by any script of the origin
        mvc.perform(get("/v3/api-docs/swagger-config")).andExpect(status().isOk())
                .andExpect(jsonPath("$.persistAuthorization").value(false));
    }
}
