-- Each NIC keeps the engine port id it got when it was created (the lowest id free on its host across both tables,
-- handed out with the host row locked FOR UPDATE), and each virtual NIC the N of its port name <vm>-ethN (the
-- lowest free in its VM): adding or removing a NIC or a VM no longer renumbers the host's other ports, so the engine
-- takes the change live instead of being rebuilt. Existing NICs get the ids and names they had: physical NICs by
-- name, then virtual NICs by VM name and MAC; N by MAC within the VM, from 1.
ALTER TABLE physical_nic ADD COLUMN engine_port integer CHECK (engine_port BETWEEN 0 AND 1023);
ALTER TABLE virtual_nic ADD COLUMN engine_port integer CHECK (engine_port BETWEEN 0 AND 1023);
ALTER TABLE virtual_nic ADD COLUMN port_index integer CHECK (port_index BETWEEN 1 AND 1024);

UPDATE physical_nic n SET engine_port = o.port
  FROM (SELECT id, row_number() OVER (PARTITION BY host_id ORDER BY name) - 1 AS port FROM physical_nic) o
 WHERE n.id = o.id;

UPDATE virtual_nic n SET engine_port = o.port, port_index = o.index
  FROM (SELECT v.id,
               (SELECT count(*) FROM physical_nic p WHERE p.host_id = v.host_id)
                   + row_number() OVER (PARTITION BY v.host_id ORDER BY vm.name, v.mac) - 1 AS port,
               row_number() OVER (PARTITION BY v.vm_id ORDER BY v.mac) AS index
          FROM virtual_nic v JOIN vm ON vm.id = v.vm_id) o
 WHERE n.id = o.id;

ALTER TABLE physical_nic ALTER COLUMN engine_port SET NOT NULL;
ALTER TABLE virtual_nic ALTER COLUMN engine_port SET NOT NULL;
ALTER TABLE virtual_nic ALTER COLUMN port_index SET NOT NULL;
-- unique within each table; across the two, the host lock taken to allocate keeps them apart
ALTER TABLE physical_nic ADD CONSTRAINT physical_nic_engine_port_unique UNIQUE (host_id, engine_port);
ALTER TABLE virtual_nic ADD CONSTRAINT virtual_nic_engine_port_unique UNIQUE (host_id, engine_port);
ALTER TABLE virtual_nic ADD CONSTRAINT virtual_nic_port_index_unique UNIQUE (vm_id, port_index);
