#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: vnic
short_description: A virtual NIC of a VM in the EDP manager
description:
  - Creates, updates or removes a VM's virtual NIC, found by its MAC address on the VM.
author: EDP project (!UNKNOWN)
version_added: 1.0.0
options:
  vm:
    description: Name of the VM on the host.
    type: str
    required: true
  mac:
    description: Unicast MAC address, unique on the host (compared in lower case).
    type: str
    required: true
  vlan:
    description: VLAN id; 0 means untagged. Needed to create it.
    type: int
  adapter_type:
    description: Emulated adapter; E1000 always takes the slow path. Needed to create it.
    type: str
    choices: [VMXNET3, E1000]
  rx_queues:
    description: Number of receive queues. Needed to create it.
    type: int
  mtu:
    description:
      - Largest IP packet the engine sends to the VM, 1280 to 9216; a routed packet over it is answered with
        ICMP fragmentation needed / ICMPv6 packet too big. The manager's default is 1500.
    type: int
extends_documentation_fragment:
  - edp.manager.edp
  - edp.manager.edp.host
  - edp.manager.edp.wait
'''

EXAMPLES = r'''
- name: VM web has a VMXNET3 NIC on VLAN 100
  edp.manager.vnic:
    host: esx-01
    vm: web
    mac: "00:50:56:aa:bb:01"
    vlan: 100
    adapter_type: VMXNET3
    rx_queues: 1
    wait: true
'''

RETURN = r'''
resource:
  description: The virtual NIC as the manager answers it (in check mode, as it would be).
  returned: state is present
  type: dict
generation:
  description: The host's desired generation after the write, or the realized one with wait.
  returned: when written or waited for
  type: int
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.edp.manager.plugins.module_utils.edp import (
    EdpClient, Resource, edp_argument_spec, host_scoped_options, parent, parent_host, run)

REQUIRED = ('mac', 'vlan', 'adapterType', 'rxQueues')
FIELDS = REQUIRED + ('mtu',)


def main():
    module = AnsibleModule(argument_spec=edp_argument_spec(**host_scoped_options(
        vm=dict(type='str', required=True),
        mac=dict(type='str', required=True),
        vlan=dict(type='int'),
        adapter_type=dict(type='str', choices=['VMXNET3', 'E1000']),
        rx_queues=dict(type='int'),
        mtu=dict(type='int'),
    )), supports_check_mode=True)
    params = module.params
    mac = params['mac'].lower()
    desired = dict(mac=mac, vlan=params['vlan'], adapterType=params['adapter_type'], rxQueues=params['rx_queues'],
                   mtu=params['mtu'])
    client = EdpClient(module)
    host_id = parent_host(module, client)
    vm_id = parent(module, client, host_id and '/hosts/%s/vms' % host_id, params['vm'], 'VM')
    run(module, Resource(module, client, vm_id and '/hosts/%s/vms/%s/vnics' % (host_id, vm_id), dict(mac=mac),
                         desired, FIELDS, required=REQUIRED), host_id)


if __name__ == '__main__':
    main()
