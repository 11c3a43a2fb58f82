package io.edp.manager.security;

import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * The request firewall's checks of header names and values, as loops over the characters: {@link StrictHttpFirewall}
 * matches every header a request reads against a regular expression (assigned code points, no control character but
 * a tab in values), 4 % of a statistics read (docs/benchmarks.md). These accept exactly what those expressions do
 * ({@code HeaderCharactersTest} compares them on every code point), printable ASCII without a table lookup.
 */
final class HeaderCharacters {

    private HeaderCharacters() {
    }

    /** The firewall's default checks, the header ones by these loops. */
    static StrictHttpFirewall firewall() {
        var firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(HeaderCharacters::name);
        firewall.setAllowedHeaderValues(HeaderCharacters::value);
        return firewall;
    }

    /** {@code [\p{IsAssigned}&&[^\p{IsControl}]]*}. */
    static boolean name(String name) {
        return allowed(name, false);
    }

    /** {@code [\p{IsAssigned}&&[[^\p{IsControl}]||\t]]*}. */
    static boolean value(String value) {
        return allowed(value, true);
    }

    private static boolean allowed(String text, boolean tab) {
        for (int i = 0; i < text.length(); ) {
            char c = text.charAt(i);
            if (c >= ' ' && c < 0x7F) {
                i++;
                continue;
            }
            int codePoint = text.codePointAt(i);
            int type = Character.getType(codePoint);
            if (type == Character.UNASSIGNED || type == Character.CONTROL && !(tab && codePoint == '\t')) {
                return false;
            }
            i += Character.charCount(codePoint);
        }
        return true;
    }
}
