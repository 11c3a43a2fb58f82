package io.edp.manager.audit;

import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Deletes audit events older than {@code edp.audit.retention}: at start-up, then hourly. */
@Component
class AuditRetention {

    private static final Logger log = LoggerFactory.getLogger(AuditRetention.class);

    private final AuditTrail trail;
    private final AuditProperties properties;
    private final InstantSource clock = InstantSource.system();

    AuditRetention(AuditTrail trail, AuditProperties properties) {
        this.trail = trail;
        this.properties = properties;
    }

    @Scheduled(initialDelay = 0, fixedDelay = 1, timeUnit = TimeUnit.HOURS)
    void deleteExpired() {
        try {
            int deleted = trail.deleteBefore(clock.instant().minus(properties.retention()));
            if (deleted > 0) {
                log.info("Deleted {} audit events older than {}", deleted, properties.retention());
            }
        } catch (RuntimeException e) { // the database may be away: the next run catches up
            log.warn("Audit events not pruned: {}", e.toString());
        }
    }
}
