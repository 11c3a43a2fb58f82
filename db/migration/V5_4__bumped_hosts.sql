-- Which hosts' desired generations did this transaction change? A global write (a firewall rule, a route, a
-- profile, an IPFIX collector, a syslog server) answers with them, and a dry run computes them before it rolls
-- back: BumpedHosts.inThisTransaction reads the rows stamped with the current transaction's id. The stamp is set by
-- a trigger, next to the triggers of V2 that bump the generations, so that no bump can go unstamped.
ALTER TABLE host_realization ADD COLUMN bumped_in xid8;

CREATE FUNCTION stamp_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.bumped_in := pg_current_xact_id();
    RETURN NEW;
END $$;

CREATE TRIGGER host_realization_created BEFORE INSERT ON host_realization
    FOR EACH ROW EXECUTE FUNCTION stamp_bump();
CREATE TRIGGER host_realization_bumped BEFORE UPDATE OF desired_generation ON host_realization
    FOR EACH ROW WHEN (NEW.desired_generation IS DISTINCT FROM OLD.desired_generation)
    EXECUTE FUNCTION stamp_bump();
