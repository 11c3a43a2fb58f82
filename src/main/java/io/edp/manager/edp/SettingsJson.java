package io.edp.manager.edp;

import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** EDP settings as stored in the jsonb columns: only the fields that are set. */
@Component
class SettingsJson {

    private final JsonMapper mapper;

    SettingsJson(JsonMapper mapper) {
        this.mapper = mapper;
    }

    String write(EdpSettings settings) {
        return mapper.writeValueAsString(settings);
    }

    EdpSettings read(String json) {
        return mapper.readValue(json, EdpSettings.class);
    }
}
