#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: host_edp
short_description: A host's EDP configuration in the EDP manager
description:
  - Sets the EDP profile a host follows and the settings it overrides (C(PUT /api/v1/hosts/{id}/edp)).
  - Every host has one configuration; C(absent) resets it to no profile and no overrides (the defaults).
author: EDP project (!UNKNOWN)
version_added: 1.0.0
options:
  profile:
    description: Name of the EDP profile the host follows; left out, the current one is kept.
    type: str
  settings:
    description:
      - The host's own settings, all of them (settings left out inherit from the profile, then the defaults),
        with the field names of the API's EdpSettings, e.g. C(mode), C(workersPerNumaNode), C(flowCacheSize),
        C(tlbEnabled); unknown names are refused by the manager. Left out, the current ones are kept.
      - Give C(mode) as LEGACY, EDP_STANDARD or EDP_DEDICATED (the NSX aliases are stored under those names).
    type: dict
extends_documentation_fragment:
  - edp.manager.edp
  - edp.manager.edp.host
  - edp.manager.edp.wait
'''

EXAMPLES = r'''
- name: esx-01 runs EDP_STANDARD with two workers on NUMA node 0, and its engine runs it
  edp.manager.host_edp:
    host: esx-01
    settings:
      mode: EDP_STANDARD
      workersPerNumaNode: {"0": 2}
    wait: true
'''

RETURN = r'''
resource:
  description: The host's EDP configuration, with what is in effect (in check mode, as it would be set).
  returned: always
  type: dict
generation:
  description: The host's desired generation after the write, or the realized one with wait.
  returned: when written or waited for
  type: int
realization:
  description: The host's realization status once the generation runs.
  returned: with wait
  type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.edp.manager.plugins.module_utils.edp import (
    EdpClient, Singleton, edp_argument_spec, host_scoped_options, normalized_settings, parent_host, run)


def main():
    module = AnsibleModule(argument_spec=edp_argument_spec(**host_scoped_options(
        profile=dict(type='str'),
        settings=dict(type='dict'),
    )), supports_check_mode=True)
    params = module.params
    client = EdpClient(module)
    host_id = parent_host(module, client)
    if host_id is None:
        # check mode: the host an earlier task creates starts with the defaults, so any setting is a change
        module.exit_json(changed=params['state'] == 'present')
    desired = dict(profile=params['profile'], settings=normalized_settings(params['settings']))
    edp = Singleton(module, client, '/hosts/%s/edp' % host_id, desired, ('profile', 'settings'), empty=dict(settings={}))
    run(module, edp, host_id)


if __name__ == '__main__':
    main()
