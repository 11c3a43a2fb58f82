'use strict';
// The operations page: a hosts list, and one host's live statistics from its server-sent event stream.
// Rates and utilization are differences between consecutive snapshots (the counters are cumulative).

const WINDOW_POINTS = 300; // five minutes at the stream's default interval of 1 s
const MODES = ['LEGACY', 'EDP_STANDARD', 'EDP_DEDICATED'];
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];

let session;
let hostsTimer;
let stream;

async function api(method, path, body) {
  const headers = {[session.csrfHeader]: session.csrfToken};
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) {
    throw new Error(json && json.detail ? json.detail : method + ' ' + path + ': ' + response.status);
  }
  return json;
}

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) {
    td.className = className;
  }
  return td;
}

function fill(tbody, rows, columns) {
  tbody.replaceChildren();
  for (const item of rows) {
    const row = tbody.insertRow();
    columns.forEach(column => cell(row, column(item)));
  }
}

// ---- hosts ----

async function showHosts() {
  const page = await api('GET', '/api/v1/hosts?size=100');
  const rows = await Promise.all(page.items.map(async host => {
    const [edp, realization] = await Promise.all([
      api('GET', '/api/v1/hosts/' + host.id + '/edp'),
      api('GET', '/api/v1/hosts/' + host.id + '/realization')]);
    return {host, edp, realization};
  }));
  const tbody = document.querySelector('#hosts tbody');
  tbody.replaceChildren();
  for (const {host, edp, realization} of rows) {
    const row = tbody.insertRow();
    row.dataset.hostId = host.id;
    row.addEventListener('click', () => { location.hash = host.id; });
    cell(row, host.name);
    cell(row, edp.effective.mode);
    cell(row, realization.desiredGeneration + ' / ' + realization.realizedGeneration);
    const failed = realization.state === 'FAILED';
    cell(row, failed ? 'FAILED: ' + realization.failureReason : realization.state, failed ? 'failed' : null);
  }
}

// ---- one host ----

function chart(element, title, series, decisions) {
  const width = Math.max(420, element.clientWidth || 480);
  const options = {
    width, height: 220, title,
    scales: {x: {time: true}, y: {range: [0, 100]}},
    series: [{}, ...series],
    hooks: {draw: [u => markDecisions(u, decisions())]},
  };
  return new uPlot(options, [[], ...series.map(() => [])], element);
}

/** Vertical dashed lines at the TLB's decisions inside the chart's time range. */
function markDecisions(u, decisions) {
  const ctx = u.ctx;
  const [min, max] = [u.scales.x.min, u.scales.x.max];
  ctx.save();
  ctx.strokeStyle = '#b3261e';
  ctx.setLineDash([4, 4]);
  for (const decision of decisions) {
    const t = Date.parse(decision.at) / 1000;
    if (t >= min && t <= max) {
      const x = Math.round(u.valToPos(t, 'x', true));
      ctx.beginPath();
      ctx.moveTo(x, u.bbox.top);
      ctx.lineTo(x, u.bbox.top + u.bbox.height);
      ctx.stroke();
    }
  }
  ctx.restore();
}

function describeDecision(d) {
  const moves = d.moves.map(m => 'port ' + m.port + ' queue ' + m.rxQueue + ': worker ' + m.fromWorker + ' → '
      + m.toWorker + ' (' + m.loadPercent + ' %)').join('; ');
  return new Date(d.at).toLocaleTimeString() + ' ' + d.trigger + ' ' + d.outcome + (moves ? ': ' + moves : '');
}

function perSecond(now, before, seconds) {
  return seconds > 0 && now >= before ? ((now - before) / seconds).toFixed(0) : '—';
}

function openHost(hostId) {
  const view = {
    times: [], utilization: new Map(), hitRates: [], previous: null, decisions: [], workers: '',
    utilizationChart: null, hitRateChart: null,
  };
  const utilizationElement = document.getElementById('utilization-chart');
  const hitRateElement = document.getElementById('hit-rate-chart');
  utilizationElement.replaceChildren();
  utilizationElement.dataset.points = '0';
  hitRateElement.replaceChildren();
  view.hitRateChart = chart(hitRateElement, null, [{label: 'hit rate %', stroke: COLORS[2]}], () => []);
  document.getElementById('tlb-decisions').replaceChildren();

  stream = new EventSource('/api/v1/hosts/' + hostId + '/stats/stream');
  stream.addEventListener('open', () => { document.getElementById('stream-state').textContent = 'live'; });
  stream.addEventListener('snapshot', event => show(view, JSON.parse(event.data), hostId));
  stream.addEventListener('end', () => {
    stream.close();
    document.getElementById('stream-state').textContent = 'The host is gone: the stream ended.';
  });
}

function show(view, s, hostId) {
  const t = Date.parse(s.takenAt) / 1000;
  const workers = s.threads.workers;
  const workerIds = workers.map(w => w.worker).join(',');
  if (workerIds !== view.workers) { // first snapshot, or the engine was rebuilt with other workers
    view.workers = workerIds;
    view.times = [];
    view.hitRates = [];
    view.utilization = new Map(workers.map(w => [w.worker, []]));
    view.previous = null;
    const element = document.getElementById('utilization-chart');
    element.replaceChildren();
    view.utilizationChart = chart(element, null, workers.map(w => ({
      label: 'worker ' + w.worker, stroke: COLORS[w.worker % COLORS.length]})), () => view.decisions);
  }
  const previous = view.previous;
  view.previous = {t, s};
  view.decisions = s.tlb.decisions;
  showDecisions(s.tlb.decisions);
  showFlowCache(s, previous);
  showQueues(s);
  showTraffic(s.traffic);
  fill(document.querySelector('#flows tbody'), s.topFlows,
      [f => f.worker, f => f.flow, f => f.packets, f => f.bytes, f => f.action]);
  if (!previous) {
    return;
  }
  view.times.push(t);
  for (const w of workers) {
    const before = previous.s.threads.workers.find(p => p.worker === w.worker);
    const wall = w.wallNanos - before.wallNanos;
    view.utilization.get(w.worker).push(wall > 0 && w.busyNanos >= before.busyNanos
        ? 100 * (w.busyNanos - before.busyNanos) / wall : null);
  }
  const hits = s.flowCache.total.hits - previous.s.flowCache.total.hits;
  const misses = s.flowCache.total.misses - previous.s.flowCache.total.misses;
  const hitRate = hits >= 0 && misses >= 0 && hits + misses > 0 ? 100 * hits / (hits + misses) : null;
  view.hitRates.push(hitRate);
  document.getElementById('hit-rate').textContent = hitRate === null ? '—' : hitRate.toFixed(1) + ' %';
  if (view.times.length > WINDOW_POINTS) {
    view.times.shift();
    view.hitRates.shift();
    view.utilization.forEach(points => points.shift());
  }
  view.utilizationChart.setData([view.times, ...view.utilization.values()]);
  view.hitRateChart.setData([view.times, view.hitRates]);
  const element = document.getElementById('utilization-chart');
  element.dataset.points = String(view.times.length);
  element.dataset.lastMax = String(Math.max(0, ...[...view.utilization.values()].map(p => p[p.length - 1] ?? 0)));
}

function showDecisions(decisions) {
  const list = document.getElementById('tlb-decisions');
  list.replaceChildren(...decisions.map(d => {
    const item = document.createElement('li');
    item.textContent = describeDecision(d);
    return item;
  }));
}

function showFlowCache(s, previous) {
  const total = s.flowCache.total;
  document.getElementById('entries').textContent = total.entries;
  document.getElementById('capacity').textContent = total.capacity;
  document.getElementById('occupancy').value = total.occupancyPercent;
  document.getElementById('occupancy-percent').textContent = total.occupancyPercent + ' %';
  document.getElementById('buckets').textContent = Object.entries(s.flowCache.occupancy)
      .map(([bucket, count]) => bucket + ' %: ' + count).join(', ');
  if (previous) {
    const before = previous.s.flowCache.total;
    const seconds = (Date.parse(s.takenAt) - Date.parse(previous.s.takenAt)) / 1000;
    for (const counter of ['misses', 'insertions', 'evictions', 'expirations']) {
      document.getElementById(counter + '-rate').textContent = perSecond(total[counter], before[counter], seconds);
    }
  }
}

function showQueues(s) {
  const names = new Map(s.nicQueues.ports.map(p => [p.port, p.name]));
  fill(document.querySelector('#queues tbody'), s.nicQueues.queues,
      [q => names.get(q.port) ?? q.port, q => q.queue, q => q.worker, q => q.packets]);
}

function showTraffic(traffic) {
  document.getElementById('traffic').textContent = traffic === null ? 'No traffic run.'
      : (traffic.running ? 'Running' : 'Finished') + ' on ' + traffic.nic + ': sent ' + traffic.sent + ', received '
        + traffic.received + ', lost ' + traffic.lost + ', dropped '
        + Object.values(traffic.dropped).reduce((a, b) => a + b, 0);
}

// ---- operator actions (absent for viewers) ----

function showActions(hostId) {
  const actions = document.getElementById('actions');
  actions.replaceChildren();
  if (!session.operator) {
    return;
  }
  actions.innerHTML = `
    <label>NIC <input id="traffic-nic" value="vmnic0"></label>
    <label>to MAC <input id="traffic-mac" value="00:50:56:aa:bb:01"></label>
    <label>flows <input id="traffic-flows" type="number" value="1000"></label>
    <label>pps <input id="traffic-pps" type="number" value="10000"></label>
    <button id="start-traffic">Start traffic</button>
    <button id="stop-traffic">Stop traffic</button>
    <button id="flush-cache">Flush flow cache</button>
    <select id="mode">${MODES.map(m => `<option value="${m}">${m}</option>`).join('')}</select>
    <button id="switch-mode">Switch mode</button>
    <span id="action-result" class="muted"></span>`;
  const base = '/api/v1/hosts/' + hostId;
  const act = (id, action) => document.getElementById(id).addEventListener('click', async () => {
    const result = document.getElementById('action-result');
    try {
      await action();
      result.textContent = 'done';
    } catch (e) {
      result.textContent = e.message;
    }
  });
  act('start-traffic', () => api('POST', base + '/traffic', {
    nic: document.getElementById('traffic-nic').value,
    destinationMac: document.getElementById('traffic-mac').value,
    flows: Number(document.getElementById('traffic-flows').value),
    packetsPerSecond: Number(document.getElementById('traffic-pps').value)}));
  act('stop-traffic', () => api('DELETE', base + '/traffic'));
  act('flush-cache', () => api('POST', base + '/stats/flow-cache/flush'));
  act('switch-mode', async () => {
    const edp = await api('GET', base + '/edp');
    const settings = {...(edp.settings ?? {}), mode: document.getElementById('mode').value};
    await api('PUT', base + '/edp', {profile: edp.profile, settings});
  });
}

// ---- navigation ----

async function route() {
  if (stream) {
    stream.close();
    stream = null;
  }
  clearInterval(hostsTimer);
  const hostId = location.hash.slice(1);
  document.getElementById('hosts-view').hidden = hostId !== '';
  document.getElementById('host-view').hidden = hostId === '';
  if (hostId === '') {
    await showHosts();
    hostsTimer = setInterval(showHosts, 5000);
    return;
  }
  const host = await api('GET', '/api/v1/hosts/' + hostId);
  document.getElementById('host-name').textContent = host.name;
  showActions(hostId);
  openHost(hostId);
}

async function start() {
  session = await (await fetch('/ui/session')).json();
  document.getElementById('account').textContent = session.user + (session.operator ? ' (operator)' : ' (viewer)');
  document.getElementById('logout-csrf').value = session.csrfToken;
  window.addEventListener('hashchange', route);
  await route();
}

start();
