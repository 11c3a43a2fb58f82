package io.edp.engine.nic;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed reads of a port's {@code driverOptions}; a bad or missing value fails with a message that names the
 * option as the configuration spells it, e.g. {@code ports[id=1].driverOptions.interface is required}.
 */
public record DriverOptions(PortConfig port) {

    public String required(String name) {
        String value = port.driverOptions().get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field(name) + " is required");
        }
        return value.trim();
    }

    /** The value, or null when the option is absent. */
    public String optional(String name) {
        String value = port.driverOptions().get(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    public boolean has(String name) {
        return optional(name) != null;
    }

    public int positiveInt(String name, int fallback) {
        return integer(name, fallback, 1, Integer.MAX_VALUE, "a positive integer");
    }

    public int intInRange(String name, int fallback, int min, int max) {
        return integer(name, fallback, min, max, "an integer in " + min + ".." + max);
    }

    private int integer(String name, int fallback, int min, int max, String expected) {
        String value = optional(name);
        if (value == null) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(field(name) + " must be " + expected + ": " + value);
    }

    public boolean bool(String name, boolean fallback) {
        String value = optional(name);
        if (value == null) {
            return fallback;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(field(name) + " must be true or false: " + value);
        };
    }

    /** One of {@code allowed} (case-insensitive, returned in lower case), or the fallback when absent. */
    public String choice(String name, String fallback, List<String> allowed) {
        String value = optional(name);
        if (value == null) {
            return fallback;
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (!allowed.contains(lower)) {
            throw new IllegalArgumentException(field(name) + " must be one of " + allowed + ": " + value);
        }
        return lower;
    }

    /** Exactly {@code bytes} bytes in hex ({@code 6d5a…} or {@code 6d:5a:…}), or null when absent. */
    public byte[] hex(String name, int bytes) {
        String value = optional(name);
        if (value == null) {
            return null;
        }
        try {
            byte[] parsed = HexFormat.of().parseHex(value.replace(":", ""));
            if (parsed.length == bytes) {
                return parsed;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new IllegalArgumentException(field(name) + " must be " + bytes + " bytes in hex (" + 2 * bytes
                + " digits): " + value);
    }

    /** Fails on the first option the driver does not know, so a misspelt option is not silently ignored. */
    public void requireKnown(Set<String> known) {
        for (String name : new TreeSet<>(port.driverOptions().keySet())) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException(field(name) + ": unknown option for driver " + port.driver()
                        + " (known: " + new TreeSet<>(known) + ")");
            }
        }
    }

    public String field(String name) {
        return "ports[id=" + port.id() + "].driverOptions." + name;
    }
}
