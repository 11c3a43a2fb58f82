package io.edp.engine.nic;

import java.util.Locale;

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

    public int positiveInt(String name, int fallback) {
        String value = optional(name);
        if (value == null) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(field(name) + " must be a positive integer: " + value);
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

    public String field(String name) {
        return "ports[id=" + port.id() + "].driverOptions." + name;
    }
}
