package io.edp.manager.api;

import java.io.IOException;

/**
 * A request body over the limit ({@code edp.requests.max-body-size}): answered with 413. An IOException, since it
 * is thrown from the body's stream while a reader (the JSON parser) consumes it.
 */
public class RequestBodyTooLargeException extends IOException {

    public RequestBodyTooLargeException(long limit) {
        super("The request body is larger than the limit of " + limit + " bytes (edp.requests.max-body-size).");
    }
}
