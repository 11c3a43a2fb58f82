package io.edp.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

/**
 * Failed logins are throttled per client address and user (the defaults: 5 free failures, then 1 s, doubling).
 * Each test logs in from addresses of its own, so that the counts of one test do not reach into another.
 */
@ExtendWith(OutputCaptureExtension.class)
class LoginThrottleTest extends ManagerTest {

    private static final int FREE_FAILURES = 5;

    private ResultActions hosts(String address, RequestPostProcessor credentials) throws Exception {
        return mvc.perform(get("/api/v1/hosts").with(credentials).with(request -> {
            request.setRemoteAddr(address);
            return request;
        }));
    }

    private void guessWrong(String address, String user, int times) throws Exception {
        for (int i = 0; i < times; i++) {
            hosts(address, httpBasic(user, "guess-" + i)).andExpect(status().isUnauthorized());
        }
    }

    @Test
    void afterTheFreeFailuresAUserIsAnswered429WithRetryAfterEvenWithTheRightPassword() throws Exception {
        guessWrong("198.51.100.1", OPERATOR, FREE_FAILURES);

        hosts("198.51.100.1", httpBasic(OPERATOR, "guess-again"))
                .andExpect(status().isTooManyRequests())
                .andExpect(header().string("Retry-After", "1"))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(429))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("Retry-After")));
        hosts("198.51.100.1", operator()).andExpect(status().isTooManyRequests());
    }

    @Test
    void aGuessingScriptLocksOutNeitherAnotherUserOfItsAddressNorItsUserElsewhere() throws Exception {
        guessWrong("198.51.100.2", OPERATOR, FREE_FAILURES);
        hosts("198.51.100.2", operator()).andExpect(status().isTooManyRequests());

        hosts("198.51.100.2", viewer()).andExpect(status().isOk());
        hosts("198.51.100.3", operator()).andExpect(status().isOk());
    }

    @Test
    void aSuccessfulLoginStartsTheCountAgain() throws Exception {
        guessWrong("198.51.100.4", OPERATOR, FREE_FAILURES - 1);
        hosts("198.51.100.4", operator()).andExpect(status().isOk());

        guessWrong("198.51.100.4", OPERATOR, FREE_FAILURES - 1);
        hosts("198.51.100.4", operator()).andExpect(status().isOk());
    }

    @Test
    void aNamedAccountIsThrottledTooAndLogsInOnceTheDelayIsOver() throws Exception {
        created("/api/v1/accounts", """
                {"name": "mallory", "role": "VIEWER", "password": "a-long-secret-phrase"}""");
        guessWrong("198.51.100.5", "mallory", FREE_FAILURES);
        var rightPassword = httpBasic("mallory", "a-long-secret-phrase");
        hosts("198.51.100.5", rightPassword).andExpect(status().isTooManyRequests());

        await("the delay to pass", () -> hosts("198.51.100.5", rightPassword).andReturn().getResponse().getStatus(),
                code -> code == 200);
    }

    @Test
    void everyFailureIsLoggedWithUserAndAddressButNotThePassword(CapturedOutput output) throws Exception {
        hosts("198.51.100.6", httpBasic(VIEWER, "not-the-viewer-password-42")).andExpect(status().isUnauthorized());

        assertThat(output.getOut()).contains("Failed login of user '" + VIEWER + "' from 198.51.100.6")
                .doesNotContain("not-the-viewer-password-42");
    }

    @Test
    void theOperationsPagesSignInFormIsThrottledInTheSameCountAsBasic() throws Exception {
        for (int i = 0; i < FREE_FAILURES - 1; i++) {
            signIn("198.51.100.7", "guess-" + i).andExpect(redirectedUrl("/login?error"));
        }
        guessWrong("198.51.100.7", VIEWER, 1); // the fifth failure, over Basic

        signIn("198.51.100.7", "guess-again").andExpect(status().isTooManyRequests())
                .andExpect(header().exists("Retry-After"));
        hosts("198.51.100.7", viewer()).andExpect(status().isTooManyRequests());
    }

    private ResultActions signIn(String address, String password) throws Exception {
        return mvc.perform(post("/login").with(csrf()).param("username", VIEWER).param("password", password)
                .with(request -> {
                    request.setRemoteAddr(address);
                    return request;
                }));
    }
}
