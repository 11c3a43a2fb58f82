package io.edp.manager.account;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.ResultActions;

class AccountApiTest extends ManagerTest {

    private static final String ACCOUNTS = "/api/v1/accounts";
    private static final String PASSWORD = "correct-horse-battery";

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aNewAccountLogsInWithItsRoleAndItsPasswordIsNeverReturned() throws Exception {
        createAccount("alice", "VIEWER", PASSWORD)
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", "http://localhost/api/v1/accounts/alice"))
                .andExpect(header().string("ETag", "\"0\""))
                .andExpect(jsonPath("$.name").value("alice"))
                .andExpect(jsonPath("$.role").value("VIEWER"))
                .andExpect(jsonPath("$.enabled").value(true))
                .andExpect(jsonPath("$.password").doesNotExist())
                .andExpect(content().string(not(containsString(PASSWORD))));

        mvc.perform(get("/api/v1/hosts").with(httpBasic("alice", PASSWORD))).andExpect(status().isOk());
        mvc.perform(post("/api/v1/hosts").with(httpBasic("alice", PASSWORD))
                        .contentType(MediaType.APPLICATION_JSON).content(hostJson("esx-01")))
                .andExpect(status().isForbidden());
        mvc.perform(get("/api/v1/hosts").with(httpBasic("alice", "wrong-password-123")))
                .andExpect(status().isUnauthorized());
        for (var read : new String[] {ACCOUNTS, ACCOUNTS + "/alice"}) {
            mvc.perform(get(read).with(operator()))
                    .andExpect(status().isOk())
                    .andExpect(content().string(not(containsString("password"))));
        }
    }

    @Test
    void thePasswordIsStoredAsABcryptHashOnly() throws Exception {
        createAccount("alice", "OPERATOR", PASSWORD).andExpect(status().isCreated());

        var stored = jdbc.queryForObject("SELECT password_hash FROM account WHERE name = 'alice'", String.class);
        assertThat(stored).matches("\\{bcrypt}\\$2[aby]\\$\\d\\d\\$[./A-Za-z0-9]{53}").doesNotContain(PASSWORD);
    }

    @Test
    void aDisabledAccountIs401FromItsNextRequestAndCanBeEnabledAgain() throws Exception {
        createAccount("bob", "OPERATOR", PASSWORD).andExpect(status().isCreated());
        mvc.perform(get("/api/v1/hosts").with(httpBasic("bob", PASSWORD))).andExpect(status().isOk());

        patchAccount("bob", "\"0\"", "{\"enabled\": false}")
                .andExpect(status().isOk())
                .andExpect(header().string("ETag", "\"1\""))
                .andExpect(jsonPath("$.enabled").value(false));
        mvc.perform(get("/api/v1/hosts").with(httpBasic("bob", PASSWORD)))
                .andExpect(status().isUnauthorized())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON));

        patchAccount("bob", "\"1\"", "{\"enabled\": true}").andExpect(status().isOk());
        mvc.perform(get("/api/v1/hosts").with(httpBasic("bob", PASSWORD))).andExpect(status().isOk());
    }

    @Test
    void aNewPasswordReplacesTheOldOneAndARoleChangeTakesEffect() throws Exception {
        createAccount("carol", "VIEWER", PASSWORD).andExpect(status().isCreated());
        mvc.perform(get("/api/v1/hosts").with(httpBasic("carol", PASSWORD))).andExpect(status().isOk());

        patchAccount("carol", null, "{\"password\": \"another-long-secret\", \"role\": \"OPERATOR\"}")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.role").value("OPERATOR"))
                .andExpect(jsonPath("$.password").doesNotExist());

        mvc.perform(get("/api/v1/hosts").with(httpBasic("carol", PASSWORD))).andExpect(status().isUnauthorized());
        mvc.perform(post("/api/v1/hosts").with(httpBasic("carol", "another-long-secret"))
                        .contentType(MediaType.APPLICATION_JSON).content(hostJson("esx-01")))
                .andExpect(status().isCreated());
    }

    @Test
    void viewersMayNeitherReadNorChangeAccounts() throws Exception {
        createAccount("alice", "VIEWER", PASSWORD).andExpect(status().isCreated());

        mvc.perform(get(ACCOUNTS).with(viewer())).andExpect(status().isForbidden())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON));
        mvc.perform(get(ACCOUNTS + "/alice").with(httpBasic("alice", PASSWORD))).andExpect(status().isForbidden());
        mvc.perform(post(ACCOUNTS).with(viewer()).contentType(MediaType.APPLICATION_JSON)
                        .content(accountJson("mallory", "OPERATOR", PASSWORD)))
                .andExpect(status().isForbidden());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM account", Long.class)).isEqualTo(1);
    }

    @Test
    void aTakenNameIs409TheBootstrapAccountsIncluded() throws Exception {
        createAccount("alice", "VIEWER", PASSWORD).andExpect(status().isCreated());

        createAccount("alice", "OPERATOR", "some-other-password").andExpect(status().isConflict())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON));
        createAccount(OPERATOR, "VIEWER", PASSWORD).andExpect(status().isConflict());
        createAccount(VIEWER, "OPERATOR", PASSWORD).andExpect(status().isConflict());
        mvc.perform(get(ACCOUNTS + "/alice").with(operator())).andExpect(jsonPath("$.role").value("VIEWER"));
    }

    @Test
    void shortPasswordsAndBadNamesAre400NamingTheField() throws Exception {
        createAccount("dave", "VIEWER", "elevenchars")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("password"));
        createAccount("Dave:x", "VIEWER", PASSWORD)
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("name"));
        createAccount("dave", "VIEWER", "ü".repeat(40)) // 40 characters, 80 bytes: BCrypt would cut it
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("password"));
        createAccount("dave", "VIEWER", PASSWORD).andExpect(status().isCreated());
        patchAccount("dave", null, "{\"password\": \"short\"}")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("password"));
    }

    @Test
    void aStaleIfMatchIs412AndAnUnknownAccount404() throws Exception {
        createAccount("erin", "VIEWER", PASSWORD).andExpect(status().isCreated());

        patchAccount("erin", "\"7\"", "{\"enabled\": false}").andExpect(status().isPreconditionFailed());
        patchAccount("nobody", null, "{\"enabled\": false}").andExpect(status().isNotFound());
        mvc.perform(get(ACCOUNTS + "/Erin\u0001").with(operator())).andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/hosts").with(httpBasic("erin", PASSWORD))).andExpect(status().isOk());
    }

    private ResultActions createAccount(String name, String role, String password) throws Exception {
        return mvc.perform(post(ACCOUNTS).with(operator()).contentType(MediaType.APPLICATION_JSON)
                .content(accountJson(name, role, password)));
    }

    private ResultActions patchAccount(String name, String ifMatch, String json) throws Exception {
        var request = patch(ACCOUNTS + "/" + name).with(operator()).contentType(MERGE_PATCH).content(json);
        return mvc.perform(ifMatch == null ? request : request.header("If-Match", ifMatch));
    }

    private static String accountJson(String name, String role, String password) {
        return """
                {"name": "%s", "role": "%s", "password": "%s"}""".formatted(name, role, password);
    }
}
