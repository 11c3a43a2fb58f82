-- The router's own addresses, one gateway per routed segment (VLAN): every host's engine answers ARP, neighbor
-- solicitations and echo for them. A change is a new generation for every host, as for routes (every_host_changed, V2).
CREATE TABLE segment_gateway (
    id      bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    vlan    integer     NOT NULL CHECK (vlan BETWEEN 0 AND 4094),
    ipv4    varchar(15),
    ipv6    varchar(45),
    version bigint      NOT NULL,
    CONSTRAINT segment_gateway_vlan_unique UNIQUE (vlan),
    CONSTRAINT segment_gateway_address CHECK (ipv4 IS NOT NULL OR ipv6 IS NOT NULL)
);

CREATE TRIGGER segment_gateways_changed AFTER INSERT OR UPDATE OR DELETE ON segment_gateway
    FOR EACH STATEMENT EXECUTE FUNCTION every_host_changed();
