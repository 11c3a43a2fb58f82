package io.edp.agent;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import io.edp.engine.EngineConfig;
import io.edp.engine.EngineStats;
import io.edp.engine.capture.CaptureStats;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * The engine's records ({@link EngineConfig}, {@link EngineStats}) as JSON between the manager and its agents: the
 * records' components as they are, so that what the agent reads equals what the manager built. Unknown members
 * are refused, so a manager and an agent that disagree on a record fail loudly instead of dropping a setting.
 * A socket address (an IPFIX collector) is the string {@code address:port} ({@code [v6]:port}).
 */
public final class EngineJson {

    public static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // the records' components only, not derived values such as WorkerHealth.isRunning()
            .changeDefaultVisibility(visibility -> visibility.withVisibility(PropertyAccessor.ALL, Visibility.NONE)
                    .withVisibility(PropertyAccessor.FIELD, Visibility.ANY)
                    .withVisibility(PropertyAccessor.CREATOR, Visibility.ANY))
            .addModule(new SimpleModule("edp-engine")
                    .addSerializer(InetSocketAddress.class, new SocketAddressSerializer())
                    .addDeserializer(InetSocketAddress.class, new SocketAddressDeserializer()))
            .build();

    private EngineJson() {
    }

    public static JsonNode tree(Object engineRecord) {
        return MAPPER.valueToTree(engineRecord);
    }

    /** @throws IllegalArgumentException when the JSON is not a valid configuration; the message says why */
    public static EngineConfig config(JsonNode json) {
        return read(json, EngineConfig.class);
    }

    public static EngineStats stats(JsonNode json) {
        return read(json, EngineStats.class);
    }

    /** @throws IllegalArgumentException when the JSON is not a capture's state; the message says why */
    public static CaptureStats captureStats(JsonNode json) {
        return read(json, CaptureStats.class);
    }

    private static <T> T read(JsonNode json, Class<T> type) {
        try {
            return MAPPER.treeToValue(json, type);
        } catch (tools.jackson.core.JacksonException e) {
            throw new IllegalArgumentException(type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    private static final class SocketAddressSerializer extends ValueSerializer<InetSocketAddress> {
        @Override
        public void serialize(InetSocketAddress value, JsonGenerator generator, SerializationContext context) {
            var host = value.getAddress() != null ? value.getAddress().getHostAddress() : value.getHostString();
            generator.writeString((host.contains(":") ? "[" + host + "]" : host) + ":" + value.getPort());
        }
    }

    private static final class SocketAddressDeserializer extends ValueDeserializer<InetSocketAddress> {
        @Override
        public InetSocketAddress deserialize(JsonParser parser, DeserializationContext context) {
            var text = parser.getValueAsString();
            int colon = text == null ? -1 : text.lastIndexOf(':');
            if (colon < 1) {
                return context.reportInputMismatch(InetSocketAddress.class, "not address:port: " + text);
            }
            var host = text.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port = Integer.parseInt(text.substring(colon + 1));
            try {
                return new InetSocketAddress(InetAddress.ofLiteral(host), port);
            } catch (IllegalArgumentException notLiteral) {
                return new InetSocketAddress(host, port); // a name: resolved here, as the engine would
            }
        }
    }
}
