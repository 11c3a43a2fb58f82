package io.edp.manager.audit;

import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.core.Ordered;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.transaction.PlatformTransactionManager;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AuditProperties.class)
@EnableScheduling
class AuditConfiguration {

    /**
     * An infrastructure advisor, as the transaction advisor is: the auto-proxy creator applies it to the
     * controllers. Static, and lazy about its collaborators, because advisors are created before other beans.
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static Advisor auditedWritesAdvisor(ObjectProvider<AuditTrail> trail,
                                        ObjectProvider<PlatformTransactionManager> transactions) {
        var advisor = new DefaultPointcutAdvisor(AuditedWrites.HANDLERS, new AuditedWrites(trail, transactions));
        advisor.setOrder(Ordered.LOWEST_PRECEDENCE - 1); // outside the advisors that run in its transaction
        return advisor;
    }
}
