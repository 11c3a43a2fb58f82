-- The notification of a queued engine request names the host's placement beside its id ("<host id> <placement>").
-- Its two listeners each serve one placement: the agents' long polls (AGENT) and the replica running the embedded
-- engines (EMBEDDED); with the id alone the latter ran an UPDATE that found nothing for every request to an agent.
CREATE OR REPLACE FUNCTION engine_request_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('edp_engine_request',
                      NEW.host_id::text || ' ' || (SELECT placement FROM host WHERE id = NEW.host_id));
    RETURN NULL;
END $$;
