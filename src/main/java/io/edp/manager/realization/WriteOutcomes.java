package io.edp.manager.realization;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import io.edp.manager.api.DryRun;
import io.edp.manager.api.FieldChange;
import io.edp.manager.api.GlobalDesiredState;
import io.edp.manager.api.NotFoundException;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.QueryParameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.support.HandlerMethodArgumentResolverComposite;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.ServletInvocableHandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.ServletRequestDataBinderFactory;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a write answers beyond its resource, computed inside the write's transaction (which the audit trail's
 * advisor opens, outside this one):
 * <ul>
 *   <li>{@code bumpedHosts}: the hosts whose desired generation it changed and to what ({@link BumpedHosts}), on every
 *       write of a {@link GlobalDesiredState} controller — a delete there answers 200 with it — and on every dry run;
 *   <li>in a dry run ({@link DryRun}), {@code changes}: the fields of the representation that differ from what is
 *       stored now (read with the resource's own GET handler before the write), the {@value DryRun#HEADER} header,
 *       and the {@code EDP-Generation} the host would get. The audit advisor then rolls the transaction back.
 * </ul>
 */
@Component
class WriteOutcomes implements GlobalOperationCustomizer, GlobalOpenApiCustomizer {

    static final String HOSTS = "bumpedHosts";
    static final String CHANGES = "changes";
    private static final String OUTCOME_SCHEMA = "WriteOutcome";
    private static final String DRY_RUN = "DryRun";
    private static final String APPLICATION_JSON = "application/json";

    /** The writes that take dryRun; the audit trail's advisor (outside this one) holds their transaction. */
    static final StaticMethodMatcherPointcut WRITES = new StaticMethodMatcherPointcut() {
        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return DryRun.takenBy(method, targetClass);
        }
    };

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static Advisor writeOutcomesAdvisor(ObjectProvider<BumpedHosts> bumped, ObjectProvider<JsonMapper> json,
            @Qualifier("requestMappingHandlerMapping") ObjectProvider<RequestMappingHandlerMapping> mappings,
            ObjectProvider<RequestMappingHandlerAdapter> adapters) {
        var advisor = new DefaultPointcutAdvisor(WRITES, new Outcomes(bumped, json, mappings, adapters));
        advisor.setOrder(Ordered.LOWEST_PRECEDENCE); // inside the audit trail's transaction
        return advisor;
    }

    private static final class Outcomes implements MethodInterceptor {

        private final ObjectProvider<BumpedHosts> bumped;
        private final ObjectProvider<JsonMapper> json;
        private final ObjectProvider<RequestMappingHandlerMapping> mappings;
        private final ObjectProvider<RequestMappingHandlerAdapter> adapters;

        Outcomes(ObjectProvider<BumpedHosts> bumped, ObjectProvider<JsonMapper> json,
                 ObjectProvider<RequestMappingHandlerMapping> mappings,
                 ObjectProvider<RequestMappingHandlerAdapter> adapters) {
            this.bumped = bumped;
            this.json = json;
            this.mappings = mappings;
            this.adapters = adapters;
        }

        @Override
        public Object invoke(MethodInvocation invocation) throws Throwable {
            var request = ((ServletRequestAttributes) RequestContextHolder.currentRequestAttributes()).getRequest();
            boolean dryRun = DryRun.requested(request);
            boolean global = AnnotatedElementUtils.hasAnnotation(invocation.getMethod().getDeclaringClass(),
                    GlobalDesiredState.class);
            if (!dryRun && !global) {
                return invocation.proceed();
            }
            var before = dryRun && !"POST".equals(request.getMethod()) ? stored(request) : null;
            var entity = (ResponseEntity<?>) invocation.proceed();
            var hosts = bumped.getObject().inThisTransaction();
            var mapper = json.getObject();
            var body = entity.getBody() == null
                    ? mapper.createObjectNode() : (ObjectNode) mapper.valueToTree(entity.getBody());
            var headers = new HttpHeaders();
            headers.putAll(entity.getHeaders());
            if (dryRun) {
                var after = "DELETE".equals(request.getMethod()) ? null : body.deepCopy();
                body.set(CHANGES, mapper.valueToTree(FieldChange.between(before, after)));
                headers.set(DryRun.HEADER, "true");
                if (!global && hosts.size() == 1) {
                    headers.set(DesiredGenerationHeader.HEADER, Long.toString(hosts.getFirst().generation()));
                }
            }
            body.set(HOSTS, mapper.valueToTree(hosts));
            var status = entity.getStatusCode().isSameCodeAs(HttpStatus.NO_CONTENT)
                    ? HttpStatus.OK : entity.getStatusCode();
            return new ResponseEntity<>(body, headers, status);
        }

        /** The resource's representation now, from its GET handler (same path); null if there is none. */
        private JsonNode stored(HttpServletRequest request) throws Exception {
            var read = new ReadOf(request);
            HandlerMethod handler;
            try {
                var chain = mappings.getObject().getHandler(read);
                if (chain == null || !(chain.getHandler() instanceof HandlerMethod found)) {
                    return null;
                }
                handler = found;
            } catch (HttpRequestMethodNotSupportedException noGet) {
                return null;
            }
            var adapter = adapters.getObject();
            var invocable = new ServletInvocableHandlerMethod(handler.createWithResolvedBean());
            invocable.setHandlerMethodArgumentResolvers(
                    new HandlerMethodArgumentResolverComposite().addResolvers(adapter.getArgumentResolvers()));
            invocable.setDataBinderFactory(new ServletRequestDataBinderFactory(List.of(),
                    adapter.getWebBindingInitializer()));
            invocable.setParameterNameDiscoverer(new DefaultParameterNameDiscoverer());
            try {
                var value = invocable.invokeForRequest(new ServletWebRequest(read), new ModelAndViewContainer());
                return json.getObject().valueToTree(value instanceof ResponseEntity<?> e ? e.getBody() : value);
            } catch (NotFoundException missing) {
                return null; // the write itself answers the 404
            }
        }
    }

    /** The write's request as a GET of the same path, with attributes of its own (the mapping sets some). */
    private static final class ReadOf extends HttpServletRequestWrapper {

        private final Map<String, Object> attributes = new HashMap<>();

        ReadOf(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getMethod() {
            return "GET";
        }

        @Override
        public Object getAttribute(String name) {
            return attributes.containsKey(name) ? attributes.get(name) : super.getAttribute(name);
        }

        @Override
        public void setAttribute(String name, Object value) {
            attributes.put(name, value);
        }

        @Override
        public void removeAttribute(String name) {
            attributes.put(name, null);
        }
    }

    // ---- the contract ----

    /** operationId of each write: whether it is a global one; filled while springdoc walks the handlers. */
    private final Map<String, Boolean> writes = new ConcurrentHashMap<>();

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        if (!DryRun.takenBy(handler.getMethod(), handler.getBeanType())) {
            return operation;
        }
        writes.put(operation.getOperationId(), handler.getBeanType().isAnnotationPresent(GlobalDesiredState.class));
        return operation.addParametersItem(new Parameter().$ref("#/components/parameters/" + DRY_RUN));
    }

    @Override
    public void customise(OpenAPI openApi) {
        var components = openApi.getComponents();
        components.addParameters(DRY_RUN, new QueryParameter().name(DryRun.PARAMETER).required(false)
                .description("true: validate and compute the write without committing it (Kubernetes' dry run): the "
                        + "same problem as the real write for bad input, else its answer with `changes` (the fields "
                        + "that differ from what is stored now) and `bumpedHosts` (the generations hosts would get), "
                        + "marked " + DryRun.HEADER + ": true. Nothing is stored, pushed or notified; the audit trail "
                        + "records it as a dry run.")
                .schema(new BooleanSchema()._default(false)));
        components.addSchemas("HostGeneration", new ObjectSchema()
                .description("A host whose desired generation the write changed, and the generation it got")
                .addProperty("hostId", new StringSchema().format("uuid").description("Id of the host"))
                .addProperty("generation", new IntegerSchema().format("int64").example(7)
                        .description("Its desired generation after the write")));
        components.addSchemas("FieldChange", new ObjectSchema()
                .description("A field the write changes: its path (nested members joined by dots), its value stored "
                        + "now (absent for a create) and after the write (absent for a delete)")
                .addProperty("field", new StringSchema().example("settings.mode")
                        .description("The field's path, members of nested objects joined by dots"))
                .addProperty("before", new Schema<>().description("Any JSON value").example("EDP_STANDARD"))
                .addProperty("after", new Schema<>().description("Any JSON value").example("EDP_DEDICATED")));
        components.addSchemas(OUTCOME_SCHEMA, outcomeMembers(new ObjectSchema()
                .description("What a delete changed: the hosts it bumped (and, in a dry run, the fields it removes)"),
                true));
        Set<String> globalSchemas = new TreeSet<>();
        Set<String> writeSchemas = new TreeSet<>();
        openApi.getPaths().values().forEach(item -> item.readOperationsMap().forEach((method, operation) -> {
            var global = writes.get(operation.getOperationId());
            if (global == null) {
                return;
            }
            if (method == PathItem.HttpMethod.DELETE) {
                var answer = new ApiResponse().description(global ? "Deleted; the hosts it bumped"
                                : "Dry run only: what the delete would change")
                        .content(new Content().addMediaType(APPLICATION_JSON,
                                new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + OUTCOME_SCHEMA))));
                if (global) {
                    operation.getResponses().remove("204");
                }
                operation.getResponses().addApiResponse("200", answer);
            }
            operation.getResponses().forEach((code, answer) -> {
                if (code.startsWith("2")) {
                    answer.addHeaderObject(DryRun.HEADER, new Header().description("true on a dry run's answer")
                            .schema(new BooleanSchema()));
                    if (answer.getContent() != null) {
                        answer.getContent().values().forEach(type -> {
                            var ref = type.getSchema() == null ? null : type.getSchema().get$ref();
                            if (ref != null && !ref.endsWith("/" + OUTCOME_SCHEMA)) {
                                var name = ref.substring(ref.lastIndexOf('/') + 1);
                                (global ? globalSchemas : writeSchemas).add(name);
                            }
                        });
                    }
                }
            });
        }));
        globalSchemas.forEach(name -> outcomeMembers(components.getSchemas().get(name), true));
        writeSchemas.removeAll(globalSchemas);
        writeSchemas.forEach(name -> outcomeMembers(components.getSchemas().get(name), false));
    }

    private static Schema<?> outcomeMembers(Schema<?> schema, boolean everyWrite) {
        if (schema == null) {
            return null;
        }
        return schema
                .addProperty(CHANGES, new ArraySchema().items(new Schema<>().$ref("#/components/schemas/FieldChange"))
                        .description("Dry runs only: the fields that differ from what is stored now"))
                .addProperty(HOSTS, new ArraySchema().items(new Schema<>().$ref("#/components/schemas/HostGeneration"))
                        .description((everyWrite ? "Write answers" : "Dry runs") + " only: the hosts whose desired "
                                + "generation this write changed (would change, in a dry run), with the generation "
                                + "each got; wait for it with GET /api/v1/hosts/{hostId}/realization?generation=N"));
    }
}
