#!/usr/bin/python
# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: profile
short_description: An EDP profile in the EDP manager
description:
  - Creates, updates or removes a named EDP configuration that hosts follow (C(host_edp)'s C(profile)).
  - Changing a profile bumps the generation of every host that follows it.
author: EDP project (!UNKNOWN)
version_added: 1.0.0
options:
  name:
    description: Unique name of the profile.
    type: str
    required: true
  description:
    description: Free text.
    type: str
  settings:
    description:
      - The profile's settings, all of them (left out ones take the defaults), with the field names of the API's
        EdpSettings, e.g. C(mode), C(workersPerNumaNode), C(flowCacheSize). Left out, the current ones are kept.
    type: dict
extends_documentation_fragment:
  - edp.manager.edp
  - edp.manager.edp.global_wait
'''

EXAMPLES = r'''
- name: Profile edp-gold
  edp.manager.profile:
    name: edp-gold
    description: Web tier
    settings: {mode: EDP_STANDARD, flowCacheSize: 131072}
'''

RETURN = r'''
resource:
  description: The profile as the manager answers it (in check mode, as it would be).
  returned: state is present
  type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.edp.manager.plugins.module_utils.edp import (
    EdpClient, Resource, edp_argument_spec, normalized_settings, path_segment, run, wait_options)

FIELDS = ('name', 'description', 'settings')


def main():
    module = AnsibleModule(argument_spec=edp_argument_spec(**wait_options(
        name=dict(type='str', required=True),
        description=dict(type='str'),
        settings=dict(type='dict'),
    )), supports_check_mode=True)
    params = module.params
    desired = dict(name=params['name'], description=params['description'],
                   settings=normalized_settings(params['settings']))
    run(module, Resource(module, EdpClient(module), '/edp-profiles', dict(name=params['name']), desired, FIELDS,
                         required=('name',),
                         item_path=lambda item: '/edp-profiles/' + path_segment(item['name'])),
        global_change=True)


if __name__ == '__main__':
    main()
