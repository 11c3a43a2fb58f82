package io.edp.manager.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a controller of desired state that is not one host's (firewall rules, routes, profiles, IPFIX collectors,
 * syslog servers): a write may bump many hosts' generations, so its answer lists them in {@code bumpedHosts} (a delete
 * answers 200 with that list instead of 204).
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface GlobalDesiredState {
}
