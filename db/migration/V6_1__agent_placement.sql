-- Where a host's engine runs: EMBEDDED in the manager process (the reconciler of the replica that hosts engines
-- pushes it), or AGENT on the host itself (its agent long-polls the desired state and reports the realization).
-- A change of placement is a host update, so the host_changed trigger bumps its generation like any other change.
ALTER TABLE host ADD COLUMN placement varchar(8) NOT NULL DEFAULT 'EMBEDDED'
    CHECK (placement IN ('EMBEDDED', 'AGENT'));

-- One row per host that has an agent token or has heard from its agent. token_sha256 is the SHA-256 of the token
-- (the token itself is shown once, when issued). stats is the agent's latest statistics snapshot (EngineStats as
-- JSON) as it took it at stats_taken_at.
CREATE TABLE host_agent (
    host_id          uuid         PRIMARY KEY REFERENCES host (id) ON DELETE CASCADE,
    token_sha256     bytea        UNIQUE,
    token_issued_at  timestamptz,
    last_seen_at     timestamptz,
    agent_version    varchar(100),
    stats            jsonb,
    stats_taken_at   timestamptz
);
