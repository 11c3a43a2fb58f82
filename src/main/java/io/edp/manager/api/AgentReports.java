package io.edp.manager.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A controller of the agents' reports (realization, statistics every few seconds), under {@link #PATH}: writes by
 * machines, not changes by people, so the audit trail leaves them out (it would drown in them).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface AgentReports {

    String PATH = "/api/v1/agent/";
}
