-- A port's MTU: the largest IP packet the engine sends out of it; a routed packet over it is answered with ICMP
-- fragmentation needed / ICMPv6 packet too big. 1,280 is IPv6's minimum link MTU (RFC 8200), which every port
-- may carry; 9,216 a jumbo frame's.
ALTER TABLE physical_nic ADD COLUMN mtu integer NOT NULL DEFAULT 1500 CHECK (mtu BETWEEN 1280 AND 9216);
ALTER TABLE virtual_nic ADD COLUMN mtu integer NOT NULL DEFAULT 1500 CHECK (mtu BETWEEN 1280 AND 9216);
