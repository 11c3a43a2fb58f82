# -*- coding: utf-8 -*-
# What every edp.manager module shares: the connection options, HTTP with Basic auth, lookup by natural key,
# the compare-then-write cycle with If-Match, check mode, --diff and waiting for a host's realization.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import time

from ansible.module_utils.six.moves.urllib.error import HTTPError, URLError
from ansible.module_utils.six.moves.urllib.parse import quote, urlencode
from ansible.module_utils.urls import Request
from ansible.module_utils.basic import env_fallback
from ansible.module_utils.common.text.converters import to_native

API = '/api/v1'
PAGE_SIZE = 100
# the manager answers a long poll after at most this long; the module loops until wait_timeout
LONG_POLL = '30s'


def edp_argument_spec(**options):
    """The connection options of every module, plus the module's own."""
    spec = dict(
        url=dict(type='str', required=True, fallback=(env_fallback, ['EDP_URL'])),
        username=dict(type='str', required=True, aliases=['user'], fallback=(env_fallback, ['EDP_USER'])),
        password=dict(type='str', required=True, no_log=True, fallback=(env_fallback, ['EDP_PASSWORD'])),
        validate_certs=dict(type='bool', default=True),
        ca_path=dict(type='path'),
        timeout=dict(type='int', default=60),
        state=dict(type='str', default='present', choices=['present', 'absent']),
    )
    spec.update(options)
    return spec


def wait_options(**options):
    """Options of the modules that change a host's desired state and can wait until its engine runs it."""
    options.update(
        wait=dict(type='bool', default=False),
        wait_timeout=dict(type='int', default=120),
    )
    return options


def host_scoped_options(**options):
    """Options of the modules whose resource lives on a host."""
    return wait_options(host=dict(type='str', required=True), **options)


def without_none(value):
    """The value with unset (None) members left out, recursively: what the API would store and answer."""
    if isinstance(value, dict):
        return dict((k, without_none(v)) for k, v in value.items() if v is not None)
    if isinstance(value, list):
        return [without_none(v) for v in value]
    return value


def comparable(value):
    """The value as compared: an empty object counts as absent (the manager answers {} for no labels/overrides)."""
    if isinstance(value, dict):
        members = dict((k, comparable(v)) for k, v in value.items())
        return dict((k, v) for k, v in members.items() if v is not None and v != {})
    if isinstance(value, list):
        return [comparable(v) for v in value]
    return value


def normalized_settings(settings):
    """EDP settings as the manager answers them: workersPerNumaNode's NUMA node ids are JSON keys, so strings."""
    if not settings or 'workersPerNumaNode' not in settings or settings['workersPerNumaNode'] is None:
        return settings
    workers = dict((str(node), int(count)) for node, count in settings['workersPerNumaNode'].items())
    return dict(settings, workersPerNumaNode=workers)


class Response(object):
    def __init__(self, status, body, headers):
        self.status = status
        self.body = body
        self.headers = headers

    @property
    def etag(self):
        return self.headers.get('ETag')

    @property
    def generation(self):
        value = self.headers.get('EDP-Generation')
        return int(value) if value is not None else None


class EdpClient(object):
    """HTTP to the manager's API; any answer but the expected ones fails the module with the problem's detail."""

    def __init__(self, module):
        self.module = module
        params = module.params
        self.root = params['url'].rstrip('/')
        self.request = Request(url_username=params['username'], url_password=params['password'],
                               force_basic_auth=True, validate_certs=params['validate_certs'],
                               ca_path=params['ca_path'], timeout=params['timeout'],
                               headers={'Accept': 'application/json, application/problem+json'})

    def call(self, method, path, body=None, etag=None, query=None, expect=(200,), timeout=None):
        # a path from the API (a Location, a 409's existing) already starts with /api/v1
        url = self.root + ('' if path.startswith(API + '/') else API) + path
        if query:
            url += '?' + urlencode(query, doseq=True)
        headers = {}
        data = None
        if body is not None:
            headers['Content-Type'] = 'application/json'
            data = json.dumps(body)
        if etag is not None:
            headers['If-Match'] = etag
        try:
            answer = self.request.open(method, url, data=data, headers=headers, timeout=timeout)
            status = answer.getcode()
        except HTTPError as e:
            answer, status = e, e.code
        except URLError as e:
            self.module.fail_json(msg='%s %s: %s' % (method, url, to_native(e.reason)))
        text = answer.read()
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            # not the manager's JSON (e.g. a proxy's error page): reported as text below
            parsed = None
        # the message's headers: looked up without regard to case
        response = Response(status, parsed, answer.headers)
        if status not in expect:
            problem = parsed if isinstance(parsed, dict) else {}
            reason = problem.get('detail') or problem.get('title') or to_native(text)
            fields = problem.get('errors') or []
            if fields:
                reason += ' ' + '; '.join('%s: %s' % (f.get('field'), f.get('message')) for f in fields)
            self.module.fail_json(msg='%s %s answered %d: %s' % (method, path, status, reason),
                                  status=status, problem=problem)
        return response

    def find(self, collection, **query):
        """The one item a natural-key filter selects (name=, mac=, prefix=&output=), or None."""
        items = self.list(collection, **query)
        if len(items) > 1:
            self.module.fail_json(msg='%d items of %s match %s' % (len(items), collection, query))
        return items[0] if items else None

    def list(self, collection, **query):
        """Every item of a collection, page by page."""
        items = []
        page = 0
        while True:
            body = self.call('GET', collection, query=dict(query, page=page, size=PAGE_SIZE)).body
            items.extend(body['items'])
            page += 1
            if page >= body['page']['totalPages']:
                return items

    def wait_realized(self, host_id, generation, timeout):
        """Long-polls the host's realization until the generation runs (None: whatever is desired now)."""
        deadline = time.time() + timeout
        query = {'wait': LONG_POLL}
        if generation is not None:
            query['generation'] = generation
        while True:
            status = self.call('GET', '/hosts/%s/realization' % host_id, query=query,
                               timeout=self.request.timeout + 30).body
            target = generation if generation is not None else status['desiredGeneration']
            if status['realizedGeneration'] >= target:
                return status
            if status['state'] == 'FAILED':
                self.module.fail_json(msg='the host did not realize generation %d: %s'
                                      % (target, status.get('failureReason')), realization=status)
            if time.time() >= deadline:
                self.module.fail_json(msg='generation %d not realized within %d s' % (target, timeout),
                                      realization=status)


class Resource(object):
    """
    One resource converged to the desired fields. A module names where the resource lives, how to find it by
    its natural key and which request fields it sets; this class reads it, compares, and writes only when
    something differs, with the ETag it read (a concurrent change answers 412 instead of being overwritten).
    Check mode sends the same writes as dry runs (?dryRun=true): the manager checks them and answers what they would
    store and the fields they would change (the diff), and stores nothing.
    """

    def __init__(self, module, client, collection, lookup, desired, fields, required=(), item_path=None):
        """
        collection: the list's path (None: the parent host is missing, so is the resource); lookup: the
        natural-key query that finds the one item; desired: the request fields the task sets (None: keep what is
        there); fields: the request schema's fields, the only ones ever sent; required: those a create needs;
        item_path(item): the path of an item (default: collection/id).
        """
        self.module = module
        self.client = client
        self.collection = collection
        self.lookup = lookup
        self.desired = without_none(desired)
        self.fields = fields
        self.required = required
        self.item_path = item_path or (lambda item: '%s/%s' % (collection, item['id']))
        self.last_write = None

    def request_fields(self, item):
        return without_none(dict((f, item.get(f)) for f in self.fields if f in item))

    def read(self):
        return self.client.find(self.collection, **self.lookup) if self.collection else None

    def converge(self, state):
        """The Ansible result: changed, diff (before/after), the resource as it is now or would be."""
        current = self.read()
        if state == 'absent':
            return self.remove(current)
        return self.update(current) if current else self.create()

    def update(self, current):
        before = self.request_fields(current)
        after = without_none(dict(before, **self.desired))
        changed = comparable(after) != comparable(before)
        result = dict(changed=changed, diff=dict(before=before, after=after), resource=current)
        if changed:
            path = self.item_path(current)
            self.last_write = self.write('PUT', path, body=after, etag=self.client.call('GET', path).etag)
            result.update(self.outcome(self.last_write, result['diff']))
        return result

    def write(self, method, path, expect=(200,), **options):
        """The write, or in check mode its dry run (?dryRun=true): checked by the manager, nothing stored."""
        query = {'dryRun': 'true'} if self.module.check_mode else None
        return self.client.call(method, path, query=query, expect=expect, **options)

    @staticmethod
    def outcome(answer, diff):
        """The resource as the write answered it and, from a dry run, the fields it changes as the diff."""
        body = dict(answer.body or {})
        changes = body.pop('changes', None)
        body.pop('bumpedHosts', None)
        if changes is not None:
            changes = [c for c in changes if c['field'] != 'version']
            diff = dict(before=dict((c['field'], c.get('before')) for c in changes),
                        after=dict((c['field'], c.get('after')) for c in changes))
        return dict(resource=body, diff=diff)

    def create(self):
        missing = [f for f in self.required if f not in self.desired]
        if missing:
            self.module.fail_json(msg='%s does not exist; creating it needs %s' % (self.lookup, ', '.join(missing)))
        result = dict(changed=True, diff=dict(before={}, after=self.desired), resource=self.desired)
        if self.collection is None:
            return result  # check mode: the parent is created by an earlier task, nothing to ask the manager
        self.last_write = self.write('POST', self.collection, body=self.desired, expect=(201, 409))
        existing = (self.last_write.body or {}).get('existing')
        if self.last_write.status == 409 and existing:
            # created by someone else since the lookup: the conflict names it, so converge that one
            return self.update(self.client.call('GET', existing).body)
        if self.last_write.status == 409:
            self.module.fail_json(msg='POST %s answered 409: %s' % (self.collection, self.last_write.body.get('detail')),
                                  problem=self.last_write.body)
        result.update(self.outcome(self.last_write, result['diff']))
        return result

    def remove(self, current):
        before = self.request_fields(current) if current else {}
        result = dict(changed=current is not None, diff=dict(before=before, after={}))
        if current is not None:
            path = self.item_path(current)
            self.last_write = self.write('DELETE', path, etag=self.client.call('GET', path).etag,
                                         expect=(200, 204, 404))
        return result


class Singleton(Resource):
    """A resource every parent has exactly one of (a host's EDP configuration): absent means reset to empty."""

    def __init__(self, module, client, path, desired, fields, empty):
        """empty: the request fields of the empty configuration (state=absent)."""
        Resource.__init__(self, module, client, None, {}, desired, fields, item_path=lambda item: path)
        self.path = path
        self.empty = empty

    def read(self):
        return self.client.call('GET', self.path).body

    def converge(self, state):
        current = self.read()
        if state == 'absent':
            self.desired = dict((f, self.empty.get(f)) for f in self.fields)
        return self.update(current)


def parent_host(module, client):
    """The id of the host the task names (see parent)."""
    return parent(module, client, '/hosts', module.params['host'], 'host')


def parent(module, client, collection, name, what):
    """
    The id of the parent the task names. A missing one fails the task, except in check mode (the resource would
    be created with it by an earlier task) and for state=absent (nothing to remove): then None.
    """
    found = client.find(collection, name=name) if collection else None
    if found is None and module.params['state'] == 'present' and not module.check_mode:
        module.fail_json(msg='no %s named %s' % (what, name))
    return found and found['id']


def run(module, resource, host_id=None, global_change=False):
    """
    Converges the resource and exits the module. With wait, long-polls the host's realization of the generation
    the write produced (or of whatever is desired now if nothing was written). host_id None: the resource's own id.
    global_change: a resource of every host (rule, route, profile): with wait, long-polls the realization of each
    host the write bumped, at the generation it got (nothing written, nothing to wait for).
    """
    result = resource.converge(module.params['state'])
    host_id = host_id or (result.get('resource') or {}).get('id')
    written = resource.last_write
    if written is not None and written.generation is not None:
        result['generation'] = written.generation
    if module.params.get('wait') and not module.check_mode:
        if global_change:
            # a global resource's write answers the hosts it bumped and their generations: wait for each
            bumped = ((written.body or {}).get('bumpedHosts') or []) if written is not None else []
            deadline = time.time() + module.params['wait_timeout']
            result['realizations'] = [resource.client.wait_realized(
                bump['hostId'], bump['generation'], max(1, int(deadline - time.time()))) for bump in bumped]
        elif host_id and module.params['state'] == 'present':
            status = resource.client.wait_realized(host_id, result.get('generation'), module.params['wait_timeout'])
            result['realization'] = status
            result.setdefault('generation', status['realizedGeneration'])
    if not module._diff:
        result.pop('diff')
    module.exit_json(**result)


def path_segment(value):
    return quote(value, safe='')
