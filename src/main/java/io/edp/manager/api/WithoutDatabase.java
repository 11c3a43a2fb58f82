package io.edp.manager.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a controller whose endpoints never use the database (they read the engines in memory): they pass the
 * database's bulkhead ({@link DatabaseRequestLimit}) and keep answering while the database is away, and their
 * contract lists no 503.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WithoutDatabase {
}
