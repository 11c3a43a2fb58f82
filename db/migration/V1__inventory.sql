-- Inventory: hosts, their NUMA nodes and labels, physical NICs, VMs and their virtual NICs.
-- Every row that the API exposes carries a version (optimistic locking, the API's ETag).
-- Everything that belongs to a host goes with it: ON DELETE CASCADE down the tree.

CREATE TABLE host (
    id                 uuid         PRIMARY KEY,
    name               varchar(63)  NOT NULL,
    management_address varchar(255) NOT NULL,
    version            bigint       NOT NULL,
    CONSTRAINT host_name_unique UNIQUE (name)
);

CREATE TABLE host_numa_node (
    host_id   uuid      NOT NULL REFERENCES host (id) ON DELETE CASCADE,
    node_id   integer   NOT NULL CHECK (node_id >= 0),
    cpu_cores integer[] NOT NULL,
    PRIMARY KEY (host_id, node_id)
);

CREATE TABLE host_label (
    host_id uuid         NOT NULL REFERENCES host (id) ON DELETE CASCADE,
    name    varchar(63)  NOT NULL,
    value   varchar(255) NOT NULL,
    PRIMARY KEY (host_id, name)
);

CREATE TABLE physical_nic (
    id               uuid         PRIMARY KEY,
    host_id          uuid         NOT NULL REFERENCES host (id) ON DELETE CASCADE,
    name             varchar(63)  NOT NULL,
    numa_node        integer      NOT NULL,
    speed_mbps       integer      NOT NULL CHECK (speed_mbps > 0),
    rx_queues        integer      NOT NULL CHECK (rx_queues BETWEEN 1 AND 64),
    rss              boolean      NOT NULL,
    driver_kind      varchar(16)  NOT NULL CHECK (driver_kind IN ('loopback', 'af_packet', 'pcap')),
    interface_name   varchar(15),
    pcap_input_file  varchar(4096),
    pcap_output_file varchar(4096),
    version          bigint       NOT NULL,
    CONSTRAINT physical_nic_name_unique UNIQUE (host_id, name)
);

CREATE TABLE vm (
    id        uuid        PRIMARY KEY,
    host_id   uuid        NOT NULL REFERENCES host (id) ON DELETE CASCADE,
    name      varchar(80) NOT NULL,
    vcpus     integer     NOT NULL CHECK (vcpus BETWEEN 1 AND 256),
    numa_node integer     NOT NULL,
    version   bigint      NOT NULL,
    CONSTRAINT vm_name_unique UNIQUE (host_id, name)
);

-- host_id is the VM's host, kept here so that the database enforces "MACs are unique per host".
CREATE TABLE virtual_nic (
    id           uuid        PRIMARY KEY,
    vm_id        uuid        NOT NULL REFERENCES vm (id) ON DELETE CASCADE,
    host_id      uuid        NOT NULL REFERENCES host (id) ON DELETE CASCADE,
    mac          varchar(17) NOT NULL,
    vlan         integer     NOT NULL CHECK (vlan BETWEEN 0 AND 4094),
    adapter_type varchar(8)  NOT NULL CHECK (adapter_type IN ('VMXNET3', 'E1000')),
    rx_queues    integer     NOT NULL CHECK (rx_queues BETWEEN 1 AND 64),
    version      bigint      NOT NULL,
    CONSTRAINT virtual_nic_mac_unique UNIQUE (host_id, mac)
);

CREATE INDEX physical_nic_host ON physical_nic (host_id);
CREATE INDEX vm_host ON vm (host_id);
CREATE INDEX virtual_nic_vm ON virtual_nic (vm_id);
