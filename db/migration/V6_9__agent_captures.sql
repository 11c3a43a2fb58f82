-- Live captures of hosts placed AGENT. The capture runs in the agent and writes its file on the agent's machine;
-- this table is what every manager replica knows of it, so that any replica lists, shows, stops and serves it: the
-- capture as started (shown: port, direction, filter, limits), the agent's last word on its state (stats, an
-- io.edp.engine.capture.CaptureStats as JSON; final once its state is ENDED) and its file as the agent uploaded it
-- (the bytes and their media type: whatever format the capture wrote). The agent uploads the file when the capture
-- ends (and, for a running one, when an operator asks for it), at most max_file_bytes, the most the capture's
-- limits can write. Rows go with their host, when an operator deletes them, or after edp.capture.retention.
CREATE TABLE agent_capture (
    id              uuid        PRIMARY KEY,
    host_id         uuid        NOT NULL REFERENCES host (id) ON DELETE CASCADE,
    shown           jsonb       NOT NULL,
    started_at      timestamptz NOT NULL,
    -- when the capture ends at the latest (its time limit), for retention while the agent never reported its end
    ends_by         timestamptz NOT NULL,
    max_file_bytes  bigint      NOT NULL,
    stats           jsonb,
    ended_at        timestamptz,
    file            bytea,
    media_type      text,
    uploaded_at     timestamptz
);
CREATE INDEX agent_capture_host ON agent_capture (host_id, started_at);
