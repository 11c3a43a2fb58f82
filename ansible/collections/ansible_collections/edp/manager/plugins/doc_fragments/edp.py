# -*- coding: utf-8 -*-

from __future__ import absolute_import, division, print_function
__metaclass__ = type


class ModuleDocFragment(object):

    # the connection and state options of every module
    DOCUMENTATION = r'''
options:
  url:
    description:
      - Base URL of the EDP manager, e.g. C(https://edp.example.com:8443).
      - Falls back to the environment variable C(EDP_URL).
    type: str
    required: true
  username:
    description:
      - Account name (an operator for writes); sent with HTTP Basic authentication.
      - Falls back to C(EDP_USER).
    type: str
    required: true
    aliases: [user]
  password:
    description:
      - The account's password. Falls back to C(EDP_PASSWORD).
    type: str
    required: true
  validate_certs:
    description:
      - Whether to verify the manager's TLS certificate.
    type: bool
    default: true
  ca_path:
    description:
      - PEM file of the CA that signed the manager's certificate.
    type: path
  timeout:
    description:
      - Seconds to wait for an answer to one request.
    type: int
    default: 60
  state:
    description:
      - C(present) creates the resource if it is missing and updates the fields the task sets if they differ
        (fields the task leaves out keep their current values); C(absent) removes it.
    type: str
    default: present
    choices: [present, absent]
notes:
  - Supports check mode (the change is computed by comparing the task's fields with what the manager answers;
    nothing is written) and C(--diff) (the resource's request fields before and after).
  - Writes send the ETag read just before as C(If-Match), so a concurrent change fails the task (412) instead of
    being overwritten.
  - Field values are compared as the manager stores them, so give them in canonical form (upper-case enums,
    lower-case MACs, canonical CIDRs, EDP modes by their EDP_ names).
'''

    # wait: for the modules that change a host's desired state
    WAIT = r'''
options:
  wait:
    description:
      - Wait until the host's engine runs the configuration the task left desired (the generation the write
        answered with in C(EDP-Generation), or the one desired now if nothing was written), with the manager's
        long poll C(GET /api/v1/hosts/{id}/realization?generation=N&wait=30s). Fails if the push fails.
    type: bool
    default: false
  wait_timeout:
    description:
      - Seconds to wait for the realization at most.
    type: int
    default: 120
'''

    # wait for the global resources (rules, routes, profiles): every host the write bumped
    GLOBAL_WAIT = r'''
options:
  wait:
    description:
      - Wait until every host the write bumped runs it (the write answers C(bumpedHosts), each host with the
        generation it got), with the manager's long poll C(GET /api/v1/hosts/{id}/realization?generation=N&wait=30s)
        per host. Fails if a host's push fails. Nothing written, nothing to wait for.
    type: bool
    default: false
  wait_timeout:
    description:
      - Seconds to wait for all the realizations at most.
    type: int
    default: 120
'''

    # host: for the resources that live on a host
    HOST = r'''
options:
  host:
    description:
      - Name of the host the resource lives on. In check mode a missing host is taken as one an earlier task
        would create.
    type: str
    required: true
'''
