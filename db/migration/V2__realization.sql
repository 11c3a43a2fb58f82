-- Desired data-path state (EDP configuration and profiles, firewall rules, routes) and its realization.
--
-- Every change to what a host should run bumps that host's desired generation in the same transaction. Triggers do
-- it, so that no write path (REST, SQL, a future feature) can forget to; they also NOTIFY edp_desired_state, which
-- PostgreSQL delivers only after commit: the reconcilers of every replica wake up then and claim the work.

CREATE TABLE edp_profile (
    name        varchar(63)  PRIMARY KEY,
    description varchar(255) NOT NULL DEFAULT '',
    settings    jsonb        NOT NULL,
    version     bigint       NOT NULL
);

-- One row per host, made with the host. settings holds only what the host overrides; null profile: none.
CREATE TABLE host_edp (
    host_id  uuid        PRIMARY KEY REFERENCES host (id) ON DELETE CASCADE,
    profile  varchar(63) REFERENCES edp_profile (name) ON UPDATE CASCADE,
    settings jsonb       NOT NULL,
    version  bigint      NOT NULL
);

CREATE INDEX host_edp_profile ON host_edp (profile);

CREATE TABLE firewall_rule (
    id                bigint       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name              varchar(80)  NOT NULL,
    priority          integer      NOT NULL CHECK (priority >= 0),
    source            varchar(50)  NOT NULL,
    destination       varchar(50)  NOT NULL,
    protocol          varchar(8)   NOT NULL,
    source_ports      varchar(11),
    destination_ports varchar(11),
    action            varchar(8)   NOT NULL CHECK (action IN ('ALLOW', 'DROP', 'REJECT')),
    applied_to        varchar(63)[] NOT NULL,
    version           bigint       NOT NULL
);

CREATE TABLE route (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    prefix       varchar(50) NOT NULL,
    next_hop_mac varchar(17) NOT NULL,
    output       varchar(63) NOT NULL,
    vlan         integer     NOT NULL CHECK (vlan BETWEEN 0 AND 4094),
    version      bigint      NOT NULL,
    CONSTRAINT route_prefix_output_unique UNIQUE (prefix, output)
);

CREATE TABLE host_realization (
    host_id             uuid         PRIMARY KEY REFERENCES host (id) ON DELETE CASCADE,
    desired_generation  bigint       NOT NULL,
    realized_generation bigint       NOT NULL DEFAULT 0,
    state               varchar(12)  NOT NULL CHECK (state IN ('PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED')),
    failure_reason      varchar(1000),
    attempts            integer      NOT NULL DEFAULT 0,
    last_attempt_at     timestamptz,
    last_success_at     timestamptz,
    next_attempt_at     timestamptz  NOT NULL DEFAULT now(),
    lease_until         timestamptz
);

-- the reconciler's claim query: hosts behind their desired generation whose retry is due
CREATE INDEX host_realization_due ON host_realization (next_attempt_at) WHERE realized_generation < desired_generation;

CREATE FUNCTION bump_generation(changed_host uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    UPDATE host_realization
       SET desired_generation = desired_generation + 1,
           state = CASE WHEN state = 'IN_PROGRESS' THEN state ELSE 'PENDING' END,
           attempts = 0,
           next_attempt_at = now()
     WHERE changed_host IS NULL OR host_id = changed_host;
    PERFORM pg_notify('edp_desired_state', '');
END $$;

CREATE FUNCTION host_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO host_realization (host_id, desired_generation, state) VALUES (NEW.id, 1, 'PENDING');
    INSERT INTO host_edp (host_id, settings, version) VALUES (NEW.id, '{}', 0);
    PERFORM pg_notify('edp_desired_state', '');
    RETURN NULL;
END $$;

CREATE FUNCTION host_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bump_generation(NEW.id);
    RETURN NULL;
END $$;

-- a deleted host's engine is closed by the reconciler, which the notification wakes
CREATE FUNCTION hosts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('edp_desired_state', '');
    RETURN NULL;
END $$;

-- NICs, VMs, vNICs: their host's engine is built from them
CREATE FUNCTION host_part_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM bump_generation(OLD.host_id);
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.host_id IS DISTINCT FROM OLD.host_id) THEN
        PERFORM bump_generation(NEW.host_id);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION profile_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bump_generation(host_id) FROM host_edp WHERE profile = NEW.name;
    RETURN NULL;
END $$;

CREATE FUNCTION every_host_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bump_generation(NULL);
    RETURN NULL;
END $$;

CREATE TRIGGER host_created AFTER INSERT ON host FOR EACH ROW EXECUTE FUNCTION host_created();
CREATE TRIGGER host_changed AFTER UPDATE ON host FOR EACH ROW
    WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION host_changed();
CREATE TRIGGER host_deleted AFTER DELETE ON host FOR EACH STATEMENT EXECUTE FUNCTION hosts_removed();
CREATE TRIGGER host_truncated AFTER TRUNCATE ON host FOR EACH STATEMENT EXECUTE FUNCTION hosts_removed();

CREATE TRIGGER physical_nic_changed AFTER INSERT OR UPDATE OR DELETE ON physical_nic
    FOR EACH ROW EXECUTE FUNCTION host_part_changed();
CREATE TRIGGER vm_changed AFTER INSERT OR UPDATE OR DELETE ON vm
    FOR EACH ROW EXECUTE FUNCTION host_part_changed();
CREATE TRIGGER virtual_nic_changed AFTER INSERT OR UPDATE OR DELETE ON virtual_nic
    FOR EACH ROW EXECUTE FUNCTION host_part_changed();

-- an identical PUT writes nothing (the service compares first), and this WHEN guards the rest
CREATE TRIGGER host_edp_changed AFTER UPDATE ON host_edp FOR EACH ROW
    WHEN (OLD.settings IS DISTINCT FROM NEW.settings OR OLD.profile IS DISTINCT FROM NEW.profile)
    EXECUTE FUNCTION host_part_changed();
CREATE TRIGGER edp_profile_changed AFTER UPDATE ON edp_profile FOR EACH ROW
    WHEN (OLD.settings IS DISTINCT FROM NEW.settings) EXECUTE FUNCTION profile_changed();

CREATE TRIGGER firewall_rules_changed AFTER INSERT OR UPDATE OR DELETE ON firewall_rule
    FOR EACH STATEMENT EXECUTE FUNCTION every_host_changed();
CREATE TRIGGER routes_changed AFTER INSERT OR UPDATE OR DELETE ON route
    FOR EACH STATEMENT EXECUTE FUNCTION every_host_changed();
