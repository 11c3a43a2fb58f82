package io.edp.manager.host;

import java.util.AbstractList;
import java.util.RandomAccess;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * The hosts of a page, each with the JSON the mapper wrote for it when its page was read (none for a host whose
 * agent status is shown: that changes with every poll and by the clock). Written as a JSON array of those bytes,
 * which are what the mapper would write for the host again: serializing the page's hundred hosts field by field was
 * a third of a kept page's cost (docs/benchmarks.md). The list's declared type stays {@code List<HostResponse>}, so
 * the contract does not see it.
 */
final class HostItems extends AbstractList<HostResponse> implements RandomAccess {

    private final HostResponse[] hosts;
    private final SerializableString[] json;

    /** {@code json[i]}: {@code hosts[i]} as the mapper writes it, or null to have it written on the way out. */
    HostItems(HostResponse[] hosts, SerializableString[] json) {
        this.hosts = hosts;
        this.json = json;
    }

    @Override
    public HostResponse get(int index) {
        return hosts[index];
    }

    @Override
    public int size() {
        return hosts.length;
    }

    /** Registers the serializer with the application's mapper. */
    @Configuration(proxyBeanMethods = false)
    static class Json {

        @Bean
        JsonMapperBuilderCustomizer hostItemsAsWritten() {
            return builder -> builder.addModule(new SimpleModule("edp-host-items")
                    .addSerializer(HostItems.class, new Serializer()));
        }
    }

    private static final class Serializer extends StdSerializer<HostItems> {

        Serializer() {
            super(HostItems.class);
        }

        @Override
        public void serialize(HostItems items, JsonGenerator generator, SerializationContext context) {
            generator.writeStartArray(items, items.hosts.length);
            for (int i = 0; i < items.hosts.length; i++) {
                if (items.json[i] != null) {
                    generator.writeRawValue(items.json[i]);
                } else {
                    context.writeValue(generator, items.hosts[i]);
                }
            }
            generator.writeEndArray();
        }
    }
}
