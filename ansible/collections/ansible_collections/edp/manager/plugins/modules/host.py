#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: host
short_description: A host in the EDP manager's inventory
description:
  - Creates, updates or removes a host, found by its unique name.
  - Removing a host removes its physical NICs, VMs and virtual NICs with it.
author: EDP project (!UNKNOWN)
version_added: 1.0.0
options:
  name:
    description: Unique name of the host.
    type: str
    required: true
  management_address:
    description: Address the manager uses to reach the host (IP address or DNS name). Needed to create it.
    type: str
  numa_nodes:
    description: NUMA nodes with their CPU cores. Needed to create it.
    type: list
    elements: dict
    suboptions:
      id:
        description: NUMA node id, unique on the host.
        type: int
        required: true
      cpu_cores:
        description: CPU cores of the node; a core belongs to one node only.
        type: list
        elements: int
        required: true
  labels:
    description: Free-form labels for automation, all of them (labels left out are removed).
    type: dict
extends_documentation_fragment:
  - edp.manager.edp
  - edp.manager.edp.wait
'''

EXAMPLES = r'''
- name: Host esx-01 exists with two NUMA nodes
  edp.manager.host:
    url: https://edp.example.com:8443
    username: operator
    password: "{{ edp_password }}"
    name: esx-01
    management_address: 192.0.2.11
    numa_nodes:
      - {id: 0, cpu_cores: [0, 1, 2, 3]}
      - {id: 1, cpu_cores: [4, 5, 6, 7]}
    labels: {rack: r12}
'''

RETURN = r'''
resource:
  description: The host as the manager answers it (in check mode, as it would be).
  returned: state is present
  type: dict
  sample: {"id": "0b7e6f7a-3c55-4f0e-9f3e-52d9c1a4e2b1", "name": "esx-01", "managementAddress": "192.0.2.11",
           "numaNodes": [{"id": 0, "cpuCores": [0, 1]}], "labels": {}, "version": 0}
generation:
  description: The host's desired generation after the write (its C(EDP-Generation)), or the realized one with wait.
  returned: when written or waited for
  type: int
  sample: 3
realization:
  description: The host's realization status once the generation runs.
  returned: with wait
  type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.edp.manager.plugins.module_utils.edp import (
    EdpClient, Resource, edp_argument_spec, run, wait_options)

FIELDS = ('name', 'managementAddress', 'numaNodes', 'labels')


def main():
    module = AnsibleModule(argument_spec=edp_argument_spec(**wait_options(
        name=dict(type='str', required=True),
        management_address=dict(type='str'),
        numa_nodes=dict(type='list', elements='dict', options=dict(
            id=dict(type='int', required=True),
            cpu_cores=dict(type='list', elements='int', required=True))),
        labels=dict(type='dict'),
    )), supports_check_mode=True)
    params = module.params
    numa_nodes = params['numa_nodes']
    desired = dict(
        name=params['name'],
        managementAddress=params['management_address'],
        numaNodes=None if numa_nodes is None else [dict(id=n['id'], cpuCores=n['cpu_cores']) for n in numa_nodes],
        labels=params['labels'])
    run(module, Resource(module, EdpClient(module), '/hosts', dict(name=params['name']), desired, FIELDS,
                         required=('managementAddress', 'numaNodes')))


if __name__ == '__main__':
    main()
