-- Each replica keeps the agent tokens it verified (VerifiedAgentTokens), so that an agent's call takes no database
-- connection for its token. This trigger NOTIFYs edp_agent_token with the host's id whenever what a token
-- authenticates changes: the host's token replaced or withdrawn, its agent row deleted (with the host), the host
-- renamed (an agent is named by its host's name); a TRUNCATE notifies without a payload (every host). PostgreSQL
-- delivers it after commit to every listening replica (DatabaseNotifications), which drops that host's token.

CREATE FUNCTION agent_token_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_LEVEL = 'STATEMENT' THEN
        PERFORM pg_notify('edp_agent_token', '');
    ELSIF TG_TABLE_NAME = 'host' THEN
        PERFORM pg_notify('edp_agent_token', OLD.id::text);
    ELSE
        PERFORM pg_notify('edp_agent_token', OLD.host_id::text);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER host_agent_token_replaced AFTER UPDATE OF token_sha256 ON host_agent FOR EACH ROW
    WHEN (OLD.token_sha256 IS NOT NULL AND NEW.token_sha256 IS DISTINCT FROM OLD.token_sha256)
    EXECUTE FUNCTION agent_token_changed();
CREATE TRIGGER host_agent_token_removed AFTER DELETE ON host_agent FOR EACH ROW
    WHEN (OLD.token_sha256 IS NOT NULL)
    EXECUTE FUNCTION agent_token_changed();
CREATE TRIGGER host_agent_token_truncated AFTER TRUNCATE ON host_agent
    FOR EACH STATEMENT EXECUTE FUNCTION agent_token_changed();
CREATE TRIGGER host_agent_renamed AFTER UPDATE OF name ON host FOR EACH ROW
    WHEN (NEW.name IS DISTINCT FROM OLD.name)
    EXECUTE FUNCTION agent_token_changed();
