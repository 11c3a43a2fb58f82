package io.edp.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The header checks accept exactly what Spring Security's {@code StrictHttpFirewall} expressions accept. */
class HeaderCharactersTest {

    private static final Pattern NAME = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");
    private static final Pattern VALUE = Pattern.compile("[\\p{IsAssigned}&&[[^\\p{IsControl}]||\\t]]*");

    @Test
    void everyCodePointAloneAndInsideTextIsJudgedAsByTheExpressions() {
        List<String> mismatches = new ArrayList<>();
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            String alone = Character.toString(codePoint);
            for (String text : List.of(alone, "Basic " + alone + "x=")) {
                if (HeaderCharacters.name(text) != NAME.matcher(text).matches()
                        || HeaderCharacters.value(text) != VALUE.matcher(text).matches()) {
                    mismatches.add(Integer.toHexString(codePoint));
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }

    @Test
    void aTabIsAllowedInValuesOnlyAndSurrogatesAloneOrPairedAreJudgedAsByTheExpressions() {
        List<String> texts = List.of("", "application/json", "a\tb", "\t", "a\u0000", "\u007F", "caf\u00E9",
                "\uD83D\uDE00", "\uD83D", "x\uDE00y", "\uDE00\uD83D", "\uD83D\uD83D\uDE00", "\uFFFF", "\u0378");
        for (String text : texts) {
            assertThat(HeaderCharacters.name(text)).as("name %s", text).isEqualTo(NAME.matcher(text).matches());
            assertThat(HeaderCharacters.value(text)).as("value %s", text).isEqualTo(VALUE.matcher(text).matches());
        }
        assertThat(HeaderCharacters.value("a\tb")).isTrue();
        assertThat(HeaderCharacters.name("a\tb")).isFalse();
    }
}
