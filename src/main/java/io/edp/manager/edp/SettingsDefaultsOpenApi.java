package io.edp.manager.edp;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * Declares the defaults of the EDP settings in the contract from the values the manager applies
 * ({@link EdpSettings#DEFAULTS}, {@link DfwLoggingSettings#DEFAULTS}), so that the two cannot drift apart.
 */
@Component
class SettingsDefaultsOpenApi implements GlobalOpenApiCustomizer {

    @Override
    public void customise(OpenAPI openApi) {
        declare(openApi, EdpSettings.DEFAULTS);
        declare(openApi, DfwLoggingSettings.DEFAULTS);
    }

    private static void declare(OpenAPI openApi, Record defaults) {
        Schema<?> schema = openApi.getComponents().getSchemas().get(defaults.getClass().getSimpleName());
        if (schema == null || schema.getProperties() == null) {
            return;
        }
        for (RecordComponent component : defaults.getClass().getRecordComponents()) {
            var value = valueOf(component, defaults);
            Schema<?> property = schema.getProperties().get(component.getName());
            if (value != null && !(value instanceof Record) && property != null) {
                property.setDefault(value);
            }
        }
    }

    private static Object valueOf(RecordComponent component, Record record) {
        try {
            return component.getAccessor().invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + component, e);
        }
    }
}
