package io.edp.manager.api;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.tags.Tag;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.core.ResolvableType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.method.HandlerMethod;
import tools.jackson.databind.JsonNode;

/**
 * Documents the API conventions once instead of on every operation: the {@code If-Match} header of conditional
 * writes, the {@code ETag} of versioned responses, the problem-details responses every operation can give, and the
 * path parameters that name a resource.
 */
@Component
class ConventionsOpenApiCustomizer implements GlobalOperationCustomizer, GlobalOpenApiCustomizer {

    private static final String PROBLEM = "Problem";
    private static final String PROBLEM_MEDIA_TYPE = "application/problem+json";
    private static final String DATABASE_UNAVAILABLE = "DatabaseUnavailable";
    private static final String ENGINE_CALLS_BUSY = "EngineCallsBusy";
    private static final String TOO_MANY_FAILED_LOGINS = "TooManyFailedLogins";
    /** What the path segment before a {@code {parameter}} names: {@code /hosts/{hostId}} is a host's id. */
    private static final Map<String, String> RESOURCES = Map.ofEntries(
            Map.entry("hosts", "host"), Map.entry("pnics", "physical NIC"), Map.entry("vms", "VM"),
            Map.entry("vnics", "virtual NIC"), Map.entry("rules", "firewall rule"), Map.entry("routes", "route"),
            Map.entry("ipfix-collectors", "IPFIX collector"), Map.entry("syslog-servers", "syslog server"),
            Map.entry("edp-profiles", "EDP profile"), Map.entry("accounts", "account"),
            Map.entry("connections", "connection (protocol-source-sourcePort-destination-destinationPort)"));

    static {
        SpringDocUtils.getConfig()
                .addRequestWrapperToIgnore(IfMatch.class)
                .replaceWithSchema(JsonNode.class, new ObjectSchema().description("""
                        A JSON Merge Patch (RFC 7386) of the resource as it is created or replaced: members given \
                        replace the current ones, null removes a member, nested objects merge."""));
    }

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        // our controllers answer creates with 201 and deletes with 204, through ResponseEntity; a read-only POST
        // (a computation, not a create) answers 200
        var ok = operation.getResponses().get("200");
        var readOnly = handler.hasMethodAnnotation(ReadOnlyPost.class);
        if (handler.hasMethodAnnotation(PostMapping.class) && ok != null && !readOnly) {
            operation.getResponses().remove("200");
            operation.getResponses().addApiResponse("201", ok.description("Created")
                    .addHeaderObject("Location", new Header().description("URI of the new resource")
                            .schema(new StringSchema().format("uri"))));
        }
        if (handler.hasMethodAnnotation(DeleteMapping.class)) {
            operation.getResponses().remove("200");
            operation.getResponses().addApiResponse("204", new ApiResponse().description("Deleted"));
        }
        var conditional = hasParameterOf(handler, IfMatch.class);
        if (conditional) {
            operation.addParametersItem(new HeaderParameter().name("If-Match").required(false)
                    .description("The ETag of the version this change is based on; 412 if the resource has changed "
                            + "since. Absent means unconditional.")
                    .schema(new StringSchema().example("\"0\"")));
            operation.getResponses().addApiResponse("412", problem("The If-Match version is no longer current"));
        }
        if (returnsVersioned(handler)) {
            operation.getResponses().forEach((code, response) -> {
                if (code.startsWith("2") && response.getContent() != null) {
                    response.addHeaderObject("ETag", new Header().description("The resource's version")
                            .schema(new StringSchema().example("\"0\"")));
                }
            });
        }
        var responses = operation.getResponses();
        responses.addApiResponse("400", problem("Invalid parameters or body; `errors` lists the bad fields"));
        responses.addApiResponse("401", problem("Missing or wrong credentials"));
        responses.addApiResponse("429", new ApiResponse().$ref("#/components/responses/" + TOO_MANY_FAILED_LOGINS));
        if (!handler.hasMethodAnnotation(GetMapping.class) && !readOnly) {
            responses.addApiResponse("403", problem("The account is not an operator"));
        }
        if (handler.hasMethodAnnotation(PostMapping.class) && !readOnly || conditional) {
            responses.addApiResponse("409", problem("Conflicts with other resources, e.g. a duplicate name or MAC, "
                    + "or the embedded engines' memory budget (then neededBytes, availableBytes, budgetBytes, hosts)"));
        }
        if (operation.getRequestBody() != null) {
            responses.addApiResponse("413", problem("The request body is over edp.requests.max-body-size"));
        }
        if (hasParameterOf(handler, UUID.class)) {
            responses.addApiResponse("404", problem("No such resource"));
        }
        if (DatabaseRequestLimit.needsDatabase(handler)) {
            responses.addApiResponse("503", new ApiResponse().$ref("#/components/responses/" + DATABASE_UNAVAILABLE));
        } else if (hasParameterOf(handler, UUID.class) && !responses.containsKey("503")) {
            // a host's engine, which may run elsewhere (a statistics stream says its own 503)
            responses.addApiResponse("503", new ApiResponse().$ref("#/components/responses/" + ENGINE_CALLS_BUSY));
        }
        return operation;
    }

    @Override
    public void customise(OpenAPI openApi) {
        Schema<?> fieldProblem = new ObjectSchema().description("A field of the request that is wrong, and why")
                .addProperty("field", new StringSchema().example("numaNodes[0].cpuCores")
                        .description("Path of the field in the body (or the query parameter's name)"))
                .addProperty("message", new StringSchema().example("must not be empty")
                        .description("What is wrong with it, and what it takes"));
        Schema<?> problem = new ObjectSchema().description("RFC 9457 problem details")
                .addProperty("type", new StringSchema().example("about:blank")
                        .description("Problem type; about:blank: the status says it all"))
                .addProperty("title", new StringSchema().example("Bad Request").description("The status's reason"))
                .addProperty("status", new IntegerSchema().example(400).description("The HTTP status code"))
                .addProperty("detail", new StringSchema().example("The request has invalid fields.")
                        .description("What went wrong and how to fix the request"))
                .addProperty("instance", new StringSchema().example("/api/v1/hosts")
                        .description("The request's path"))
                .addProperty("errors", new ArraySchema().items(fieldProblem)
                        .description("Present on validation errors: each bad field"));
        if (openApi.getComponents() == null) {
            openApi.components(new Components());
        }
        openApi.getComponents().addSchemas(PROBLEM, problem);
        openApi.getComponents().getSchemas().forEach((name, schema) -> discriminated(name, schema,
                openApi.getComponents().getSchemas()));
        openApi.getComponents().addResponses(DATABASE_UNAVAILABLE, problem("The database is away or busy; retry "
                + "after the time that Retry-After says").addHeaderObject("Retry-After", retryAfter(5)));
        openApi.getComponents().addResponses(ENGINE_CALLS_BUSY, problem("Too many calls already wait on this "
                + "replica for engines run elsewhere, such as agents' (edp.agent.concurrent-requests); retry after "
                + "the time that Retry-After says").addHeaderObject("Retry-After", retryAfter(5)));
        openApi.getComponents().addResponses(TOO_MANY_FAILED_LOGINS, problem("Too many failed logins of this user "
                + "from this address (README, \"Failed logins\"); retry after the time that Retry-After says, with "
                + "the right password").addHeaderObject("Retry-After", retryAfter(1)));
        if (openApi.getPaths() != null) {
            openApi.getPaths().forEach((path, item) -> item.readOperations().forEach(operation -> {
                if (operation.getParameters() != null) {
                    operation.getParameters().forEach(parameter -> describe(path, parameter));
                }
            }));
        }
        if (openApi.getTags() != null) {
            openApi.getTags().sort(Comparator.comparing(Tag::getName)); // a stable order for the committed contract
        }
    }

    /**
     * A path parameter without a description is the id (or name) of the resource its path segment lists; any other
     * parameter takes its schema's description, which Swagger UI would not show.
     */
    private static void describe(String path, Parameter parameter) {
        if (parameter.getDescription() != null) {
            return;
        }
        var placeholder = "/{" + parameter.getName() + "}";
        int at = path.indexOf(placeholder);
        if ("path".equals(parameter.getIn()) && at > 0) {
            var segment = path.substring(path.lastIndexOf('/', at - 1) + 1, at);
            var resource = RESOURCES.get(segment);
            if (resource != null) {
                parameter.setDescription((parameter.getName().endsWith("Id") ? "Id" : "Name") + " of the "
                        + resource);
            }
        } else if (parameter.getSchema() != null) {
            parameter.setDescription(parameter.getSchema().getDescription());
        }
    }

    /**
     * A union chosen by a discriminator ({@code kind} of a NIC driver) declares the values it takes as an enum, and
     * each case says its own value in place of the reference back to the union that springdoc writes, which would
     * make a validator recurse.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void discriminated(String name, Schema<?> union, Map<String, Schema> schemas) {
        var discriminator = union.getDiscriminator();
        if (discriminator == null || discriminator.getMapping() == null || union.getProperties() == null) {
            return;
        }
        var property = discriminator.getPropertyName();
        Schema kind = union.getProperties().get(property);
        kind.setEnum(List.copyOf(discriminator.getMapping().keySet()));
        if (kind.getDescription() == null) {
            kind.setDescription("Which of the cases this is; it decides the other fields");
        }
        var backReference = "#/components/schemas/" + name;
        discriminator.getMapping().forEach((value, reference) -> {
            List<Schema> parts = schemas.get(reference.substring(reference.lastIndexOf('/') + 1)).getAllOf();
            if (parts != null) {
                parts.replaceAll(part -> backReference.equals(part.get$ref()) ? new ObjectSchema()
                        .addProperty(property, new StringSchema().description("Always " + value)._enum(List.of(value)))
                        .addRequiredItem(property) : part);
            }
        });
    }

    private static boolean hasParameterOf(HandlerMethod handler, Class<?> type) {
        return Arrays.stream(handler.getMethodParameters()).anyMatch(parameter -> parameter.getParameterType() == type);
    }

    private static boolean returnsVersioned(HandlerMethod handler) {
        var type = ResolvableType.forMethodReturnType(handler.getMethod());
        var body = ResponseEntity.class.isAssignableFrom(type.toClass()) ? type.getGeneric(0) : type;
        return Versioned.class.isAssignableFrom(body.toClass());
    }

    private static Header retryAfter(int example) {
        return new Header().description("Seconds to wait").schema(new IntegerSchema().example(example));
    }

    private static ApiResponse problem(String description) {
        var schema = new Schema<>().$ref("#/components/schemas/" + PROBLEM);
        return new ApiResponse().description(description)
                .content(new Content().addMediaType(PROBLEM_MEDIA_TYPE, new MediaType().schema(schema)));
    }
}
