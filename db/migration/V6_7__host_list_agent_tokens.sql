-- A host shows its agent's status in the host list when it is placed AGENT or has an agent token: a token issued or
-- withdrawn changes what the list shows, so it moves the host list's counter (V6_6) like a change to the host. Then
-- a kept page knows which of its hosts show a status and reads the statuses of those only (none for a page of
-- embedded hosts without tokens). The agents' calls (last_seen_at, statistics) do not move it.
CREATE CONSTRAINT TRIGGER host_list_agent_token_added AFTER INSERT ON host_agent
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.token_sha256 IS NOT NULL)
    EXECUTE FUNCTION host_list_changed();
CREATE CONSTRAINT TRIGGER host_list_agent_token_changed AFTER UPDATE OF token_sha256 ON host_agent
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN ((OLD.token_sha256 IS NULL) IS DISTINCT FROM (NEW.token_sha256 IS NULL))
    EXECUTE FUNCTION host_list_changed();
CREATE CONSTRAINT TRIGGER host_list_agent_token_removed AFTER DELETE ON host_agent
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.token_sha256 IS NOT NULL)
    EXECUTE FUNCTION host_list_changed();
CREATE TRIGGER host_list_agent_truncated AFTER TRUNCATE ON host_agent
    FOR EACH STATEMENT EXECUTE FUNCTION host_list_changed();
