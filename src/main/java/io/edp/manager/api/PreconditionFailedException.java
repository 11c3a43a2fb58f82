package io.edp.manager.api;

/** The client's {@code If-Match} names a version that is no longer current: 412. */
public class PreconditionFailedException extends RuntimeException {

    public PreconditionFailedException(String message) {
        super(message);
    }
}
