#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: pnic
short_description: A physical NIC of a host in the EDP manager
description:
  - Creates, updates or removes a physical NIC (an uplink), found by its name on the host.
author: EDP project (!UNKNOWN)
version_added: 1.0.0
options:
  name:
    description: Name of the NIC, unique on the host (e.g. vmnic0).
    type: str
    required: true
  numa_node:
    description: NUMA node the NIC is attached to; must exist on the host. Needed to create it.
    type: int
  speed_mbps:
    description: Link speed in Mbit/s. Needed to create it.
    type: int
  rx_queues:
    description: Number of receive queues. Needed to create it.
    type: int
  rss:
    description: Whether receive-side scaling spreads flows over the queues. Needed to create it.
    type: bool
  mtu:
    description:
      - Largest IP packet the engine sends out of the NIC, 1280 to 9216; a routed packet over it is answered with
        ICMP fragmentation needed / ICMPv6 packet too big. The manager's default is 1500.
    type: int
  driver:
    description: The NIC driver. Needed to create it.
    type: dict
    suboptions:
      kind:
        description: C(loopback) (in memory), C(af_packet) (a Linux interface) or C(pcap) (capture files).
        type: str
        required: true
        choices: [loopback, af_packet, pcap]
      interface_name:
        description: Linux interface name (af_packet).
        type: str
      input_file:
        description: Capture file to replay (pcap).
        type: str
      output_file:
        description: Capture file to write (pcap).
        type: str
extends_documentation_fragment:
  - edp.manager.edp
  - edp.manager.edp.host
  - edp.manager.edp.wait
'''

EXAMPLES = r'''
- name: Uplink vmnic0 reads and writes veth0
  edp.manager.pnic:
    host: esx-01
    name: vmnic0
    numa_node: 0
    speed_mbps: 25000
    rx_queues: 2
    rss: true
    mtu: 9000
    driver: {kind: af_packet, interface_name: veth0}
    wait: true
'''

RETURN = r'''
resource:
  description: The NIC as the manager answers it (in check mode, as it would be).
  returned: state is present
  type: dict
generation:
  description: The host's desired generation after the write, or the realized one with wait.
  returned: when written or waited for
  type: int
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.edp.manager.plugins.module_utils.edp import (
    EdpClient, Resource, edp_argument_spec, host_scoped_options, parent_host, run)

REQUIRED = ('name', 'numaNode', 'speedMbps', 'rxQueues', 'rss', 'driver')
FIELDS = REQUIRED + ('mtu',)


def main():
    module = AnsibleModule(argument_spec=edp_argument_spec(**host_scoped_options(
        name=dict(type='str', required=True),
        numa_node=dict(type='int'),
        speed_mbps=dict(type='int'),
        rx_queues=dict(type='int'),
        rss=dict(type='bool'),
        mtu=dict(type='int'),
        driver=dict(type='dict', options=dict(
            kind=dict(type='str', required=True, choices=['loopback', 'af_packet', 'pcap']),
            interface_name=dict(type='str'),
            input_file=dict(type='str'),
            output_file=dict(type='str'))),
    )), supports_check_mode=True)
    params = module.params
    driver = params['driver']
    desired = dict(
        name=params['name'],
        numaNode=params['numa_node'],
        speedMbps=params['speed_mbps'],
        rxQueues=params['rx_queues'],
        rss=params['rss'],
        mtu=params['mtu'],
        driver=None if driver is None else dict(kind=driver['kind'], interfaceName=driver['interface_name'],
                                                inputFile=driver['input_file'], outputFile=driver['output_file']))
    client = EdpClient(module)
    host_id = parent_host(module, client)
    run(module, Resource(module, client, host_id and '/hosts/%s/pnics' % host_id, dict(name=params['name']),
                         desired, FIELDS, required=REQUIRED), host_id)


if __name__ == '__main__':
    main()
