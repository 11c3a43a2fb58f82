package io.edp.manager.edp;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import io.edp.manager.api.IfMatch;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.NotFoundException;
import io.edp.manager.host.EngineAdmission;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The desired EDP configuration of each host. A change bumps the host's generation in the same transaction (a
 * trigger); an identical PUT writes nothing, so version and generation stay.
 */
@Service
@Transactional
public class HostEdpService {

    private final JdbcClient jdbc;
    private final SettingsJson json;
    private final EdpProfileService profiles;
    private final EffectiveSettingsCheck check;
    private final EngineAdmission budget;

    HostEdpService(JdbcClient jdbc, SettingsJson json, EdpProfileService profiles, EffectiveSettingsCheck check,
                   EngineAdmission budget) {
        this.jdbc = jdbc;
        this.json = json;
        this.profiles = profiles;
        this.check = check;
        this.budget = budget;
    }

    @Transactional(readOnly = true)
    HostEdpResponse get(UUID hostId) {
        return find(hostId, "").orElseThrow(() -> notFound(hostId));
    }

    HostEdpResponse replace(UUID hostId, IfMatch ifMatch, HostEdpRequest request) {
        var current = find(hostId, " FOR UPDATE").orElseThrow(() -> notFound(hostId));
        ifMatch.check(current.version());
        var settings = request.settingsOrNone().checked("settings.");
        var profile = request.profile() == null ? EdpSettings.NONE : profiles.settingsForShare(request.profile())
                .orElseThrow(() -> new InvalidRequestException("profile", "no EDP profile named '"
                        + request.profile() + "'"));
        var problems = check.problems(hostId, settings.over(profile).over(EdpSettings.DEFAULTS), "settings.");
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        if (settings.equals(current.settings()) && Objects.equals(request.profile(), current.profile())) {
            return current; // idempotent: nothing changes, not even the version or the generation
        }
        return budget.admit(() -> {
            jdbc.sql("UPDATE host_edp SET profile = :profile, settings = :settings::jsonb, version = version + 1 "
                            + "WHERE host_id = :hostId")
                    .param("hostId", hostId)
                    .param("profile", request.profile())
                    .param("settings", json.write(settings))
                    .update();
            return get(hostId);
        });
    }

    /** What host {@code hostId} should run: its settings over its profile's over the defaults; empty if no host. */
    @Transactional(readOnly = true)
    public Optional<EdpSettings> effective(UUID hostId) {
        return find(hostId, "").map(HostEdpResponse::effective);
    }

    /** {@link #effective(UUID)} of each of {@code hostIds} that exists, in one query. */
    @Transactional(readOnly = true)
    public Map<UUID, EdpSettings> effective(Collection<UUID> hostIds) {
        Map<UUID, EdpSettings> effective = new HashMap<>();
        jdbc.sql(SELECT + " WHERE h.host_id = ANY(:hostIds)").param("hostIds", hostIds.toArray(UUID[]::new))
                .query(this::row).list().forEach(edp -> effective.put(edp.hostId(), edp.effective()));
        return effective;
    }

    private static final String SELECT = """
            SELECT h.host_id, h.profile, h.settings::text AS settings, p.settings::text AS profile_settings,
                   h.version
              FROM host_edp h LEFT JOIN edp_profile p ON p.name = h.profile""";

    private Optional<HostEdpResponse> find(UUID hostId, String lock) {
        return jdbc.sql(SELECT + " WHERE h.host_id = :hostId" + (lock.isEmpty() ? "" : lock + " OF h"))
                .param("hostId", hostId)
                .query(this::row)
                .optional();
    }

    private HostEdpResponse row(ResultSet rs, int rowNum) throws SQLException {
        var own = json.read(rs.getString("settings"));
        var profileSettings = rs.getString("profile_settings");
        var profile = profileSettings == null ? EdpSettings.NONE : json.read(profileSettings);
        return new HostEdpResponse(rs.getObject("host_id", UUID.class), rs.getString("profile"), own,
                own.over(profile).over(EdpSettings.DEFAULTS), rs.getLong("version"));
    }

    private static NotFoundException notFound(UUID hostId) {
        return new NotFoundException("No host with id " + hostId);
    }
}
