package io.edp.manager.realization;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Part of readiness: not ready until the start-up reconciliation has pushed every host, since until then hosts
 * of the inventory run no engine. A replica without embedded engines has neither.
 */
@Component
@ConditionalOnEmbeddedEngines
class StartupReconciliationHealthIndicator implements HealthIndicator {

    private final Reconciler reconciler;

    StartupReconciliationHealthIndicator(Reconciler reconciler) {
        this.reconciler = reconciler;
    }

    @Override
    public Health health() {
        return reconciler.startupReconciled() ? Health.up().build()
                : Health.outOfService().withDetail("reason", "pushing every host to its engine after start-up")
                        .build();
    }
}
