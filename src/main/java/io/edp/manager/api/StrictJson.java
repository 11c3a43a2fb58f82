package io.edp.manager.api;

import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.deser.DeserializationProblemHandler;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.deser.std.StdScalarDeserializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;

/**
 * Request bodies are read exactly as the contract declares them: an unknown field is a 400 that names it (every one of
 * them, not the first), a number or boolean where a string is declared (a string where a number is, a fraction where an
 * integer is) is a 400, and so is a control character in any string. Lenient reading turned
 * {@code {"mode": "EDP_STANDARD"}} sent without its {@code settings} wrapper into "clear the settings", and a NUL
 * reached PostgreSQL.
 */
@Configuration(proxyBeanMethods = false)
class StrictJson {

    @Bean
    JsonMapperBuilderCustomizer strictRequestBodies() {
        return builder -> builder
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .withCoercionConfig(LogicalType.Textual, strings -> strings
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .addHandler(new UnknownFields())
                .addModule(new SimpleModule("edp-strict-strings").addDeserializer(String.class, new PlainText()));
    }

    /**
     * Collects the unknown fields of the body being read, so that all of them are named at once; outside a
     * collection (stored JSON the manager wrote itself) they are left to the mapper's default.
     */
    static final class UnknownFields extends DeserializationProblemHandler {

        private static final ThreadLocal<Collection> COLLECTED = new ThreadLocal<>();

        /** The unknown fields met so far, and the top-level members that are silently skipped. */
        private record Collection(Set<String> tolerated, List<FieldProblem> unknown) {
        }

        /** Runs {@code read}, then throws a 400 naming every unknown field it met. */
        static <T> T refused(Supplier<T> read) {
            start(Set.of());
            try {
                T value = read.get();
                finish();
                return value;
            } finally {
                COLLECTED.remove();
            }
        }

        /** Starts collecting; {@code tolerated} top-level members are skipped without a word. */
        static void start(Set<String> tolerated) {
            COLLECTED.set(new Collection(tolerated, new ArrayList<>()));
        }

        static void finish() {
            var collection = COLLECTED.get();
            COLLECTED.remove();
            if (collection != null && !collection.unknown().isEmpty()) {
                throw new InvalidRequestException(collection.unknown());
            }
        }

        /**
         * Where the unknown field is. A record collects its unknown fields while it reads its creator's and replays
         * them afterwards from a buffer: the reading parser then stands at the end of the record's object.
         */
        private static String path(DeserializationContext context, JsonParser parser, String propertyName) {
            TokenStreamContext holder;
            if (parser != context.getParser()) {
                holder = context.getParser().streamReadContext();
            } else {
                holder = parser.streamReadContext();
                if (parser.currentToken() == JsonToken.START_OBJECT || parser.currentToken() == JsonToken.START_ARRAY) {
                    holder = holder.getParent(); // already inside the field's value
                }
                holder = holder == null ? null : holder.getParent();
            }
            var outer = JsonProblems.path(holder);
            return outer.equals("$") ? propertyName : outer + "." + propertyName;
        }

        @Override
        public boolean handleUnknownProperty(DeserializationContext context, JsonParser parser,
                ValueDeserializer<?> deserializer, Object beanOrClass, String propertyName) {
            var collection = COLLECTED.get();
            if (collection == null) {
                return false;
            }
            var path = path(context, parser, propertyName);
            if (collection.tolerated().contains(path)) {
                parser.skipChildren();
                return true;
            }
            var known = new TreeSet<String>();
            if (deserializer != null && deserializer.getKnownPropertyNames() != null) {
                deserializer.getKnownPropertyNames().forEach(name -> known.add(name.toString()));
            }
            collection.unknown().add(new FieldProblem(path,
                    "unknown field" + (known.isEmpty() ? "" : "; this object takes " + known)));
            parser.skipChildren();
            return true;
        }
    }

    /** A string without control characters (U+0000 to U+001F, U+007F to U+009F): names, addresses, labels. */
    static final class PlainText extends StdScalarDeserializer<String> {

        PlainText() {
            super(String.class);
        }

        @Override
        public LogicalType logicalType() {
            return LogicalType.Textual;
        }

        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) {
            String value = StringDeserializer.instance.deserialize(parser, context);
            if (value != null) {
                for (int i = 0; i < value.length(); i++) {
                    if (Character.isISOControl(value.charAt(i))) {
                        return context.reportInputMismatch(this,
                                "must not contain control characters (found U+%04X at index %d)",
                                (int) value.charAt(i), i);
                    }
                }
            }
            return value;
        }
    }

    /**
     * Collects the unknown fields around each {@code @RequestBody} read. The members of the resource's own
     * representation (what the operation answers: {@code id}, {@code version}, parent ids) are skipped, so that a
     * {@code GET} response can be edited and sent back as a {@code PUT}.
     */
    @ControllerAdvice
    static class UnknownFieldsAdvice extends RequestBodyAdviceAdapter {

        @Override
        public boolean supports(MethodParameter parameter, Type targetType,
                Class<? extends HttpMessageConverter<?>> converterType) {
            return true;
        }

        @Override
        public HttpInputMessage beforeBodyRead(HttpInputMessage message, MethodParameter parameter, Type targetType,
                Class<? extends HttpMessageConverter<?>> converterType) {
            UnknownFields.start(representationMembers(parameter));
            return message;
        }

        private static Set<String> representationMembers(MethodParameter parameter) {
            var answer = ResolvableType.forMethodReturnType(parameter.getMethod());
            var representation = ResponseEntity.class.isAssignableFrom(answer.toClass())
                    ? answer.getGeneric(0).toClass() : answer.toClass();
            return representation.isRecord() ? Arrays.stream(representation.getRecordComponents())
                    .map(RecordComponent::getName).collect(Collectors.toUnmodifiableSet()) : Set.of();
        }

        @Override
        public Object afterBodyRead(Object body, HttpInputMessage message, MethodParameter parameter,
                Type targetType, Class<? extends HttpMessageConverter<?>> converterType) {
            UnknownFields.finish();
            return body;
        }
    }
}
