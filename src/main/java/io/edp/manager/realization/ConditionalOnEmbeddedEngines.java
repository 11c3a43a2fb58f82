package io.edp.manager.realization;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * The bean exists only on the replica that runs the embedded engines
 * ({@link io.edp.manager.engines.EngineProperties#embedded()}, true unless set false): the reconciler pushes, and so
 * starts engines, on that replica alone.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ConditionalOnBooleanProperty(name = "edp.engines.embedded", matchIfMissing = true)
@interface ConditionalOnEmbeddedEngines {
}
