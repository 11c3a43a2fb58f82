package io.edp.manager.api;

import java.util.Optional;

/**
 * The request clashes with the state of other resources (a duplicate name or MAC, a NUMA node in use): 409. When
 * the clash is with one existing resource, {@code existing} is its path: the answer names it (a {@code Location}
 * header and an {@code existing} member), so that a client can adopt it instead of creating another.
 */
public class ConflictException extends RuntimeException {

    private final String existing;

    public ConflictException(String message) {
        this(message, null);
    }

    public ConflictException(String message, String existing) {
        super(message);
        this.existing = existing;
    }

    public Optional<String> existing() {
        return Optional.ofNullable(existing);
    }
}
