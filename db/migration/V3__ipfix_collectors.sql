-- IPFIX collectors: global, every host's engine exports to all of them (when its settings switch IPFIX on).
-- A change is a new generation for every host, as for routes (every_host_changed, V2).
CREATE TABLE ipfix_collector (
    id      bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    address varchar(45) NOT NULL,
    port    integer     NOT NULL CHECK (port BETWEEN 1 AND 65535),
    version bigint      NOT NULL,
    CONSTRAINT ipfix_collector_address_port_unique UNIQUE (address, port)
);

CREATE TRIGGER ipfix_collectors_changed AFTER INSERT OR UPDATE OR DELETE ON ipfix_collector
    FOR EACH STATEMENT EXECUTE FUNCTION every_host_changed();
