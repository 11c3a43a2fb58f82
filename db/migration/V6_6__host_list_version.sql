-- A counter of the changes to what the host list shows (hosts, their NUMA nodes and labels): a manager keeps the
-- pages of hosts it read and serves one again while the counter has not moved (HostList). The counter commits with
-- the change, so a read that starts after a commit, on any replica, sees it moved.
CREATE TABLE host_list_version (version bigint NOT NULL);
INSERT INTO host_list_version VALUES (0);

-- Once per transaction. Deferred to the commit, so that its row lock is the last a transaction takes: taken at its
-- first statement, two transactions writing hosts in different orders could deadlock on it.
CREATE FUNCTION host_list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('edp.host_list_bumped', true) IS DISTINCT FROM 'yes' THEN
        UPDATE host_list_version SET version = version + 1;
        PERFORM set_config('edp.host_list_bumped', 'yes', true);
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER host_list_host AFTER INSERT OR UPDATE OR DELETE ON host
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION host_list_changed();
CREATE CONSTRAINT TRIGGER host_list_numa_node AFTER INSERT OR UPDATE OR DELETE ON host_numa_node
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION host_list_changed();
CREATE CONSTRAINT TRIGGER host_list_label AFTER INSERT OR UPDATE OR DELETE ON host_label
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION host_list_changed();
-- a constraint trigger cannot be on TRUNCATE
CREATE TRIGGER host_list_truncated AFTER TRUNCATE ON host FOR EACH STATEMENT EXECUTE FUNCTION host_list_changed();
CREATE TRIGGER host_list_numa_node_truncated AFTER TRUNCATE ON host_numa_node
    FOR EACH STATEMENT EXECUTE FUNCTION host_list_changed();
CREATE TRIGGER host_list_label_truncated AFTER TRUNCATE ON host_label
    FOR EACH STATEMENT EXECUTE FUNCTION host_list_changed();
