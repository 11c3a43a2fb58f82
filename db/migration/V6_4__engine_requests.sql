-- Operator actions on the engine of a host placed AGENT (flush a cache, a trace, traffic, connections, counters)
-- travel to its agent through this table, so that any replica may take the operator's request while the agent
-- long-polls any other. The replica serving the operator inserts a row and waits; the insert NOTIFYs
-- edp_engine_request with the host's id, which wakes the agent's long poll on whichever replica holds it; that
-- answer hands the row to the agent (delivered_at: each request is handed out once, so an action is never done
-- twice); the agent PUTs its answer, which NOTIFYs edp_engine_answer with the request's id, and the waiting replica
-- reads it. request and answer are JSON (EngineRequest, AgentAnswer). A row lives until its caller is done with it;
-- rows whose caller went away are deleted once long past their deadline.
CREATE TABLE engine_request (
    id            uuid        PRIMARY KEY,
    host_id       uuid        NOT NULL REFERENCES host (id) ON DELETE CASCADE,
    request       jsonb       NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    deadline      timestamptz NOT NULL,
    delivered_at  timestamptz,
    answer        jsonb,
    answered_at   timestamptz
);
CREATE INDEX engine_request_undelivered ON engine_request (host_id) WHERE delivered_at IS NULL;
CREATE INDEX engine_request_deadline ON engine_request (deadline);

CREATE FUNCTION engine_request_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('edp_engine_request', NEW.host_id::text);
    RETURN NULL;
END $$;

CREATE FUNCTION engine_request_answered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('edp_engine_answer', NEW.id::text);
    RETURN NULL;
END $$;

CREATE TRIGGER engine_request_queued AFTER INSERT ON engine_request FOR EACH ROW
    EXECUTE FUNCTION engine_request_queued();
CREATE TRIGGER engine_request_answered AFTER UPDATE ON engine_request FOR EACH ROW
    WHEN (NEW.answered_at IS NOT NULL AND OLD.answered_at IS NULL)
    EXECUTE FUNCTION engine_request_answered();
