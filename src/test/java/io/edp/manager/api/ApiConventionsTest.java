package io.edp.manager.api;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** Errors are problem details everywhere, whatever went wrong. */
class ApiConventionsTest extends ManagerTest {

    @Test
    void anUnknownPathIs404ProblemDetails() throws Exception {
        mvc.perform(get("/api/v1/nope").with(viewer()))
                .andExpect(status().isNotFound())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(404))
                .andExpect(jsonPath("$.title").value("Not Found"))
                .andExpect(jsonPath("$.detail").value("No endpoint matches GET /api/v1/nope."));
    }

    @Test
    void anUnknownHostIs404ProblemDetails() throws Exception {
        mvc.perform(get("/api/v1/hosts/00000000-0000-0000-0000-000000000001").with(viewer()))
                .andExpect(status().isNotFound())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail", containsString("00000000-0000-0000-0000-000000000001")));
    }

    @Test
    void anIdThatIsNoUuidIs400() throws Exception {
        mvc.perform(get("/api/v1/hosts/esx-01").with(viewer()))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON));
    }

    @Test
    void aWrongMethodIs405ProblemDetails() throws Exception {
        mvc.perform(put("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isMethodNotAllowed())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(header().string("Allow", allOf(containsString("GET"), containsString("POST"))));
    }

    @Test
    void anUnsupportedMediaTypeIs415ProblemDetailsNamingTheAcceptedOnes() throws Exception {
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.TEXT_PLAIN).content("esx-01"))
                .andExpect(status().isUnsupportedMediaType())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail", allOf(containsString("text/plain"),
                        containsString("send the body as application/json"))));
    }

    @Test
    void patchWithPlainJsonIs415BecauseItMustBeAMergePatch() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(patch("/api/v1/hosts/" + id).with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{}"))
                .andExpect(status().isUnsupportedMediaType())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail", containsString("application/merge-patch+json")));
    }

    @Test
    void malformedJsonIs400SayingWhere() throws Exception {
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"esx-01\",\n \"managementAddress\": }"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail", allOf(containsString("not valid JSON"), containsString("line 2"))));
    }

    @Test
    void aValueOfTheWrongTypeIs400NamingTheField() throws Exception {
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON).content("""
                        {"name": "esx-01", "managementAddress": "192.0.2.1",
                         "numaNodes": [{"id": "zero", "cpuCores": [0]}]}"""))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("numaNodes[0].id"));
    }

    @Test
    void aMissingBodyIs400() throws Exception {
        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON));
    }

    @Test
    void aMergePatchThatIsNoObjectIs400() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(patch("/api/v1/hosts/" + id).with(operator()).contentType(MERGE_PATCH).content("[]"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("$"));
    }

    @Test
    void ifMatchStarMatchesAnyVersion() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(delete("/api/v1/hosts/" + id).with(operator()).header("If-Match", "*"))
                .andExpect(status().isNoContent());
    }

    @Test
    void ifMatchAcceptsAListOfETags() throws Exception {
        var id = createHost("esx-01");

        mvc.perform(delete("/api/v1/hosts/" + id).with(operator()).header("If-Match", "\"5\", \"0\""))
                .andExpect(status().isNoContent());
    }
}
