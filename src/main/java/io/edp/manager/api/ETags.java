package io.edp.manager.api;

/**
 * ETags are the resource's version column, as a strong entity tag: a version always renders the same JSON.
 */
public final class ETags {

    private ETags() {
    }

    public static String of(long version) {
        return "\"" + version + "\"";
    }
}
