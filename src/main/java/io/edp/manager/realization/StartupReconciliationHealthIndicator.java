package io.edp.manager.realization;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Part of readiness: not ready until the start-up reconciliation has pushed every host, since until then hosts
 * of the inventory run no engine. A replica without embedded engines has no reconciler and is ready at once.
 */
@Component
class StartupReconciliationHealthIndicator implements HealthIndicator {

    private final ObjectProvider<Reconciler> reconciler;

    StartupReconciliationHealthIndicator(ObjectProvider<Reconciler> reconciler) {
        this.reconciler = reconciler;
    }

    @Override
    public Health health() {
        Reconciler here = reconciler.getIfAvailable();
        if (here == null) {
            return Health.up().withDetail("reason", "this replica runs no embedded engines (edp.engines.embedded)")
                    .build();
        }
        return here.startupReconciled() ? Health.up().build()
                : Health.outOfService().withDetail("reason", "pushing every host to its engine after start-up")
                        .build();
    }
}
