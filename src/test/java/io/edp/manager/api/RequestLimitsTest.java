package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** A request cannot make the manager read, hold or store more than its limits allow. */
class RequestLimitsTest extends ManagerTest {

    @Test
    void aBodyOverTheSizeLimitIs413ProblemDetailsAndCreatesNothing() throws Exception {
        var labels = IntStream.range(0, 100_000).mapToObj(i -> "\"l" + i + "\": \"v\"")
                .collect(Collectors.joining(", ", "{", "}"));
        var body = """
                {"name": "esx-huge", "managementAddress": "192.0.2.11",
                 "numaNodes": [{"id": 0, "cpuCores": [0]}], "labels": %s}""".formatted(labels);
        assertThat(body.length()).isGreaterThan(1024 * 1024);

        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isContentTooLarge())
                .andExpect(header().string("Content-Type", "application/problem+json"))
                .andExpect(jsonPath("$.detail", containsString("edp.requests.max-body-size")));
        assertThat(rows("host")).isZero();
    }

    @Test
    void moreLabelsThanAHostMayHaveAre400NamingTheField() throws Exception {
        var labels = IntStream.range(0, 65).mapToObj(i -> "\"l" + i + "\": \"v\"")
                .collect(Collectors.joining(", ", "{", "}"));

        mvc.perform(post("/api/v1/hosts").with(operator()).contentType(MediaType.APPLICATION_JSON).content("""
                        {"name": "esx-labels", "managementAddress": "192.0.2.11",
                         "numaNodes": [{"id": 0, "cpuCores": [0]}], "labels": %s}""".formatted(labels)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("labels"));
        assertThat(rows("host")).isZero();
    }
}
