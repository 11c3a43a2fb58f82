package io.edp.manager.api;

import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.security.web.firewall.RequestRejectedHandler;

/** Problem details from the layers below Spring MVC: Tomcat's error page and Spring Security's firewall. */
@Configuration(proxyBeanMethods = false)
class ProblemErrorConfiguration {

    /**
     * Replaces every error report valve of the host (Boot adds one of its own) by {@link ProblemErrorReportValve};
     * ordered last, so that Boot's is already there to be removed.
     */
    @Bean
    ProblemErrorReports problemErrorReports() {
        return new ProblemErrorReports();
    }

    /** A path the firewall refuses ({@code ;b=c}, {@code //x}, an encoded '.' segment …): 400, saying why. */
    @Bean
    RequestRejectedHandler problemRequestRejected() {
        return (request, response, rejected) -> ProblemJson.write(response, 400,
                rejected.getMessage() + "; send a plain path: no ';' parameters, no '//', no encoded '/', '\\', "
                        + "'%' or '.' segments.");
    }

    /**
     * Replaces every error report valve of the host (Boot adds one of its own) by {@link ProblemErrorReportValve};
     * ordered last, so that Boot's is already there to be removed.
     */
    static final class ProblemErrorReports
            implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

        @Override
        public void customize(ConfigurableTomcatWebServerFactory factory) {
            factory.addContextCustomizers(context -> {
                if (context.getParent() instanceof StandardHost host) {
                    for (var valve : host.getPipeline().getValves()) {
                        if (valve instanceof ErrorReportValve) {
                            host.getPipeline().removeValve(valve);
                        }
                    }
                    host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
                    host.getPipeline().addValve(new ProblemErrorReportValve());
                }
            });
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
