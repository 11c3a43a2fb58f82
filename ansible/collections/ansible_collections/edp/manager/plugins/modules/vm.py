#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: vm
short_description: A VM of a host in the EDP manager
description:
  - Creates, updates or removes a VM, found by its name on the host. Removing it removes its virtual NICs.
author: EDP project (!UNKNOWN)
version_added: 1.0.0
options:
  name:
    description: Name of the VM, unique on the host.
    type: str
    required: true
  vcpus:
    description: Number of virtual CPUs. Needed to create it.
    type: int
  numa_node:
    description: NUMA node the VM runs on; must exist on the host. Needed to create it.
    type: int
extends_documentation_fragment:
  - edp.manager.edp
  - edp.manager.edp.host
  - edp.manager.edp.wait
'''

EXAMPLES = r'''
- name: VM web runs on NUMA node 0 of esx-01
  edp.manager.vm:
    host: esx-01
    name: web
    vcpus: 2
    numa_node: 0
'''

RETURN = r'''
resource:
  description: The VM as the manager answers it (in check mode, as it would be).
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

FIELDS = ('name', 'vcpus', 'numaNode')


def main():
    module = AnsibleModule(argument_spec=edp_argument_spec(**host_scoped_options(
        name=dict(type='str', required=True),
        vcpus=dict(type='int'),
        numa_node=dict(type='int'),
    )), supports_check_mode=True)
    params = module.params
    desired = dict(name=params['name'], vcpus=params['vcpus'], numaNode=params['numa_node'])
    client = EdpClient(module)
    host_id = parent_host(module, client)
    run(module, Resource(module, client, host_id and '/hosts/%s/vms' % host_id, dict(name=params['name']),
                         desired, FIELDS, required=FIELDS), host_id)


if __name__ == '__main__':
    main()
