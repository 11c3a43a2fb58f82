package io.edp.manager.edp;

import java.util.Map;
import java.util.ArrayList;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

import io.edp.manager.api.ConflictException;
import io.edp.manager.api.IfMatch;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.api.SqlPages;
import io.edp.manager.api.SqlPages.Filter;
import io.edp.manager.host.EngineAdmission;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * EDP profiles. Replacing a profile's settings bumps the generation of every host that follows it, in the same
 * transaction (a trigger, V2__realization.sql); an identical PUT writes nothing and keeps version and generations.
 */
@Service
@Transactional
class EdpProfileService {

    private static final String NAME = "[A-Za-z0-9][A-Za-z0-9._-]{0,62}";

    private final JdbcClient jdbc;
    private final SettingsJson json;
    private final EffectiveSettingsCheck check;
    private final EngineAdmission budget;

    EdpProfileService(JdbcClient jdbc, SettingsJson json, EffectiveSettingsCheck check, EngineAdmission budget) {
        this.jdbc = jdbc;
        this.json = json;
        this.check = check;
        this.budget = budget;
    }

    EdpProfileResponse create(EdpProfileRequest request) {
        if (request.name() == null || !request.name().matches(NAME)) {
            throw new InvalidRequestException("name", "must be 1 to 63 letters, digits, '.', '_' or '-', "
                    + "starting with a letter or digit");
        }
        var settings = request.settingsOrNone().checked("settings.");
        int inserted = jdbc.sql("""
                        INSERT INTO edp_profile (name, description, settings, version)
                        VALUES (:name, :description, :settings::jsonb, 0) ON CONFLICT (name) DO NOTHING""")
                .param("name", request.name())
                .param("description", request.descriptionOrEmpty())
                .param("settings", json.write(settings))
                .update();
        if (inserted == 0) {
            throw new ConflictException("An EDP profile named '" + request.name() + "' already exists",
                    "/api/v1/edp-profiles/" + request.name());
        }
        return get(request.name());
    }

    @Transactional(readOnly = true)
    EdpProfileResponse get(String name) {
        return find(name, "").orElseThrow(() -> notFound(name));
    }

    @Transactional(readOnly = true)
    Page<EdpProfileResponse> list(String name, Pageable pageable) {
        var filter = Filter.equal("p.name", "name", name);
        // a profile's name is its id
        return SqlPages.page(jdbc, select(filter.where()), Map.of("name", "p.name", "id", "p.name"), "edp_profile p",
                filter, this::row, pageable);
    }

    EdpProfileResponse replace(String name, IfMatch ifMatch, EdpProfileRequest request) {
        var current = find(name, " FOR UPDATE OF p").orElseThrow(() -> notFound(name));
        ifMatch.check(current.version());
        var settings = request.settingsOrNone().checked("settings.");
        if (settings.equals(current.settings()) && request.descriptionOrEmpty().equals(current.description())) {
            return current; // idempotent: nothing changes, not even the version
        }
        checkFollowers(name, settings);
        return budget.admit(() -> {
            jdbc.sql("UPDATE edp_profile SET description = :description, settings = :settings::jsonb, "
                            + "version = version + 1 WHERE name = :name")
                    .param("name", name)
                    .param("description", request.descriptionOrEmpty())
                    .param("settings", json.write(settings))
                    .update();
            return get(name);
        });
    }

    /** Refuses (409) settings that would leave a host following the profile with settings it cannot run. */
    private void checkFollowers(String name, EdpSettings settings) {
        var invalid = new ArrayList<String>();
        jdbc.sql("""
                        SELECT h.host_id, host.name, h.settings::text AS settings
                          FROM host_edp h JOIN host ON host.id = h.host_id
                         WHERE h.profile = :name ORDER BY host.name""")
                .param("name", name)
                .query(rs -> {
                    var hostId = rs.getObject("host_id", UUID.class);
                    var effective = json.read(rs.getString("settings")).over(settings).over(EdpSettings.DEFAULTS);
                    var problems = check.problems(hostId, effective, "");
                    if (!problems.isEmpty()) {
                        invalid.add(rs.getString("name") + " (" + problems.stream()
                                .map(p -> p.field() + ": " + p.message()).collect(Collectors.joining("; ")) + ")");
                    }
                });
        if (!invalid.isEmpty()) {
            throw new ConflictException("These settings would leave " + invalid.size() + " host(s) following "
                    + "profile '" + name + "' with settings their engine cannot run: " + String.join(", ", invalid));
        }
    }

    void delete(String name, IfMatch ifMatch) {
        var current = find(name, " FOR UPDATE OF p").orElseThrow(() -> notFound(name));
        ifMatch.check(current.version());
        if (current.hosts() > 0) {
            throw new ConflictException("EDP profile '" + name + "' is used by " + current.hosts()
                    + " host(s); point them elsewhere first");
        }
        jdbc.sql("DELETE FROM edp_profile WHERE name = :name").param("name", name).update();
    }

    /** The settings of profile {@code name}, locked against change until the caller's transaction ends. */
    Optional<EdpSettings> settingsForShare(String name) {
        return jdbc.sql("SELECT settings::text FROM edp_profile WHERE name = :name FOR SHARE")
                .param("name", name).query(String.class).optional().map(json::read);
    }

    private Optional<EdpProfileResponse> find(String name, String lock) {
        return jdbc.sql(select(" WHERE p.name = :name") + lock).param("name", name).query(this::row).optional();
    }

    private static String select(String where) {
        return """
                SELECT p.name, p.description, p.settings::text AS settings, p.version,
                       (SELECT count(*) FROM host_edp h WHERE h.profile = p.name) AS hosts
                  FROM edp_profile p""" + where;
    }

    private EdpProfileResponse row(java.sql.ResultSet rs, int rowNum) throws java.sql.SQLException {
        return new EdpProfileResponse(rs.getString("name"), rs.getString("description"),
                json.read(rs.getString("settings")), rs.getLong("hosts"), rs.getLong("version"));
    }

    private static NotFoundException notFound(String name) {
        return new NotFoundException("No EDP profile named '" + name + "'");
    }
}
