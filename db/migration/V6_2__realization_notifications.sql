-- Long-polls on a host's realization are held by any replica, and the realization they wait for is recorded by
-- another (the replica that runs the embedded engines, or whichever replica an agent reports through). This trigger
-- NOTIFYs edp_realization with the host's id when a waiter's answer may have changed: RealizationWaits.done reads
-- "realized at or past the generation, or FAILED", so it fires when the realized generation moves, when the state
-- turns FAILED, and when the host is deleted (its waiters are answered 404). PostgreSQL delivers it after commit to
-- every listening replica (DatabaseNotifications).

CREATE FUNCTION realization_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('edp_realization', OLD.host_id::text);
    RETURN NULL;
END $$;

CREATE TRIGGER host_realization_moved AFTER UPDATE ON host_realization FOR EACH ROW
    WHEN (NEW.realized_generation IS DISTINCT FROM OLD.realized_generation
          OR (NEW.state = 'FAILED' AND OLD.state IS DISTINCT FROM 'FAILED'))
    EXECUTE FUNCTION realization_moved();
CREATE TRIGGER host_realization_removed AFTER DELETE ON host_realization FOR EACH ROW
    EXECUTE FUNCTION realization_moved();
