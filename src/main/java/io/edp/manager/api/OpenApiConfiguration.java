package io.edp.manager.api;

import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.oas.annotations.servers.Server;
import org.springframework.context.annotation.Configuration;

/**
 * The contract's header. The server is the relative "/", so the served document does not depend on the host and
 * port it was fetched from and can be compared with the committed openapi/edp-api.yaml.
 */
@Configuration(proxyBeanMethods = false)
@OpenAPIDefinition(
        info = @Info(title = "EDP manager API", version = "v1", description = """
                Inventory and configuration of EDP hosts. Conventions: errors are RFC 9457 problem details \
                (application/problem+json, with an `errors` array of {field, message} for invalid fields); \
                bodies are read strictly: unknown fields, a value of another JSON type than declared and control \
                characters in strings are 400s naming each field; every \
                resource has a version sent as a strong `ETag`, and PUT, PATCH and DELETE honour `If-Match` \
                (412 when stale, absent = unconditional); PATCH takes a JSON Merge Patch (RFC 7386, \
                application/merge-patch+json); lists take `page`, `size` (max 100) and `sort` and answer \
                {items, page}. Authentication: HTTP Basic; the viewer role may read, the operator role may \
                do everything."""),
        servers = @Server(url = "/", description = "This manager"),
        security = @SecurityRequirement(name = OpenApiConfiguration.BASIC_AUTH))
@SecurityScheme(name = OpenApiConfiguration.BASIC_AUTH, type = SecuritySchemeType.HTTP, scheme = "basic",
        description = "An operator or viewer account (EDP_OPERATOR_USER/PASSWORD, EDP_VIEWER_USER/PASSWORD)")
class OpenApiConfiguration {

    static final String BASIC_AUTH = "basicAuth";
}
