package io.edp.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.regex.Pattern;

import io.edp.manager.security.AccountProperties.Account;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;

@ExtendWith(OutputCaptureExtension.class)
class AccountsTest {

    private final org.springframework.security.crypto.password.PasswordEncoder encoder =
            PasswordEncoderFactories.createDelegatingPasswordEncoder();

    @Test
    void withoutAnOperatorPasswordOneIsGeneratedAndLoggedOnceAndOnlyItsHashIsKept(CapturedOutput output) {
        var users = Accounts.userDetails(
                new AccountProperties(new Account("admin", ""), new Account("", "")), encoder);

        var matcher = Pattern.compile("user: admin\\s+password: (\\S+)").matcher(output.getOut());
        assertThat(matcher.find()).as("start-up log shows user and password").isTrue();
        var password = matcher.group(1);
        assertThat(password).hasSizeGreaterThanOrEqualTo(32);
        assertThat(output.getOut().split(Pattern.quote(password), -1)).hasSize(2); // logged exactly once
        var stored = users.loadUserByUsername("admin").getPassword();
        assertThat(stored).startsWith("{bcrypt}").doesNotContain(password);
        assertThat(encoder.matches(password, stored)).isTrue();
    }

    @Test
    void generatedPasswordsDifferFromRunToRun(CapturedOutput output) {
        var none = new AccountProperties(new Account("admin", null), new Account(null, null));
        var first = Accounts.userDetails(none, encoder).loadUserByUsername("admin").getPassword();
        var second = Accounts.userDetails(none, encoder).loadUserByUsername("admin").getPassword();

        var passwords = Pattern.compile("password: (\\S+)").matcher(output.getOut()).results()
                .map(result -> result.group(1)).toList();
        assertThat(passwords).hasSize(2).doesNotHaveDuplicates();
        assertThat(encoder.matches(passwords.get(0), second)).isFalse();
        assertThat(encoder.matches(passwords.get(0), first)).isTrue();
    }

    @Test
    void configuredPasswordsAreHashedAndNeverLogged(CapturedOutput output) {
        var users = Accounts.userDetails(new AccountProperties(
                new Account("ops", "s3cret-operator"), new Account("ro", "s3cret-viewer")), encoder);

        assertThat(output.getAll()).doesNotContain("s3cret");
        var operator = users.loadUserByUsername("ops");
        assertThat(operator.getPassword()).startsWith("{bcrypt}");
        assertThat(encoder.matches("s3cret-operator", operator.getPassword())).isTrue();
        assertThat(operator.getAuthorities()).extracting(Object::toString).containsExactly("ROLE_OPERATOR");
        assertThat(users.loadUserByUsername("ro").getAuthorities()).extracting(Object::toString)
                .containsExactly("ROLE_VIEWER");
    }

    @Test
    void aPreEncodedPasswordIsKeptAsItIs() {
        var hash = encoder.encode("s3cret");
        var users = Accounts.userDetails(
                new AccountProperties(new Account("ops", hash), new Account(null, null)), encoder);

        assertThat(users.loadUserByUsername("ops").getPassword()).isEqualTo(hash);
    }

    @Test
    void aViewerWithoutPasswordIsNotCreated() {
        var users = Accounts.userDetails(
                new AccountProperties(new Account("ops", "x"), new Account("ro", "")), encoder);

        assertThat(users.userExists("ro")).isFalse();
    }

    @Test
    void theViewerCannotShareTheOperatorsName() {
        assertThatIllegalStateException().isThrownBy(() -> Accounts.userDetails(
                new AccountProperties(new Account("ops", "x"), new Account("ops", "y")), encoder));
    }
}
