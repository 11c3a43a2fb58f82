#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: route
short_description: A route in the EDP manager
description:
  - Creates, updates or removes a route, found by its prefix and output NIC. A change bumps the generation of
    every host with that NIC.
author: EDP project (!UNKNOWN)
version_added: 1.0.0
options:
  prefix:
    description: Destination prefix, IPv4 or IPv6, in canonical form (as the manager stores it, e.g. 10.128.0.0/16).
    type: str
    required: true
  output:
    description: Name of the physical NIC the frames leave on; hosts without it skip the route.
    type: str
    required: true
  next_hop_mac:
    description: MAC address of the next hop (compared in lower case). Needed to create it.
    type: str
  vlan:
    description: VLAN to tag on the way out; 0, untagged. Needed to create it.
    type: int
extends_documentation_fragment:
  - edp.manager.edp
  - edp.manager.edp.global_wait
'''

EXAMPLES = r'''
- name: 10.128.0.0/16 leaves on vmnic1 towards the router
  edp.manager.route:
    prefix: 10.128.0.0/16
    output: vmnic1
    next_hop_mac: "02:00:00:00:00:fe"
    vlan: 20
'''

RETURN = r'''
resource:
  description: The route as the manager answers it (in check mode, as it would be).
  returned: state is present
  type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.edp.manager.plugins.module_utils.edp import (
    EdpClient, Resource, edp_argument_spec, run, wait_options)

FIELDS = ('prefix', 'output', 'nextHopMac', 'vlan')


def main():
    module = AnsibleModule(argument_spec=edp_argument_spec(**wait_options(
        prefix=dict(type='str', required=True),
        output=dict(type='str', required=True),
        next_hop_mac=dict(type='str'),
        vlan=dict(type='int'),
    )), supports_check_mode=True)
    params = module.params
    next_hop = params['next_hop_mac']
    desired = dict(prefix=params['prefix'], output=params['output'],
                   nextHopMac=next_hop and next_hop.lower(), vlan=params['vlan'])
    run(module, Resource(module, EdpClient(module), '/routing/routes',
                         dict(prefix=params['prefix'], output=params['output']), desired, FIELDS, required=FIELDS),
        global_change=True)


if __name__ == '__main__':
    main()
