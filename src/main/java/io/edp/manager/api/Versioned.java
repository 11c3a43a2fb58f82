package io.edp.manager.api;

/** A response body that knows the version it shows, so that its ETag can be sent with it. */
public interface Versioned {

    long version();
}
