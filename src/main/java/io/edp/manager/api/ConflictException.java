package io.edp.manager.api;

/** The request clashes with the state of other resources (a duplicate name or MAC, a NUMA node in use): 409. */
public class ConflictException extends RuntimeException {

    public ConflictException(String message) {
        super(message);
    }
}
