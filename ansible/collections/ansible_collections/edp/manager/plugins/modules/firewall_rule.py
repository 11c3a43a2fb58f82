#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: firewall_rule
short_description: A distributed-firewall rule in the EDP manager
description:
  - Creates, updates or removes a firewall rule, found by its unique name. A change bumps the generation of
    every host the rule applies to.
author: EDP project (!UNKNOWN)
version_added: 1.0.0
options:
  name:
    description: Unique name of the rule.
    type: str
    required: true
  priority:
    description: Evaluation order, lower first. Needed to create it.
    type: int
  action:
    description: What a matching connection gets. Needed to create it.
    type: str
    choices: [ALLOW, DROP, REJECT]
  protocol:
    description: Protocol matched. Needed to create it.
    type: str
    choices: [ANY, TCP, UDP, ICMP, ICMPV6]
  source:
    description: Source CIDR (IPv4 or IPv6), a bare address, or any. Needed to create it.
    type: str
  destination:
    description: Destination CIDR (IPv4 or IPv6), a bare address, or any. Needed to create it.
    type: str
  source_ports:
    description: TCP/UDP source ports, a port or a range from-to; left out on create, any.
    type: str
  destination_ports:
    description: TCP/UDP destination ports, a port or a range from-to; left out on create, any.
    type: str
  applied_to:
    description: Virtual NIC MACs or physical NIC names the rule applies to; empty, everywhere.
    type: list
    elements: str
extends_documentation_fragment:
  - edp.manager.edp
  - edp.manager.edp.global_wait
'''

EXAMPLES = r'''
- name: No telnet anywhere
  edp.manager.firewall_rule:
    name: block-telnet
    priority: 100
    action: DROP
    protocol: TCP
    source: any
    destination: any
    destination_ports: "23"
'''

RETURN = r'''
resource:
  description: The rule as the manager answers it (in check mode, as it would be).
  returned: state is present
  type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.edp.manager.plugins.module_utils.edp import (
    EdpClient, Resource, edp_argument_spec, run, wait_options)

FIELDS = ('name', 'priority', 'action', 'protocol', 'source', 'destination', 'sourcePorts', 'destinationPorts',
          'appliedTo')


def main():
    module = AnsibleModule(argument_spec=edp_argument_spec(**wait_options(
        name=dict(type='str', required=True),
        priority=dict(type='int'),
        action=dict(type='str', choices=['ALLOW', 'DROP', 'REJECT']),
        protocol=dict(type='str', choices=['ANY', 'TCP', 'UDP', 'ICMP', 'ICMPV6']),
        source=dict(type='str'),
        destination=dict(type='str'),
        source_ports=dict(type='str'),
        destination_ports=dict(type='str'),
        applied_to=dict(type='list', elements='str'),
    )), supports_check_mode=True)
    params = module.params
    desired = dict(name=params['name'], priority=params['priority'], action=params['action'],
                   protocol=params['protocol'], source=params['source'], destination=params['destination'],
                   sourcePorts=params['source_ports'], destinationPorts=params['destination_ports'],
                   appliedTo=params['applied_to'])
    run(module, Resource(module, EdpClient(module), '/firewall/rules', dict(name=params['name']), desired, FIELDS,
                         required=('priority', 'action', 'protocol', 'source', 'destination')),
        global_change=True)


if __name__ == '__main__':
    main()
