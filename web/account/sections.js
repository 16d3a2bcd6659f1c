// Fills the page's sections from /account/me and /account/usage. Text only (textContent), never
// HTML: nothing an answer holds can become markup.
import { formatCount, formatInstant, formatMoney } from './format.js';

const byId = (id) => document.getElementById(id);
const setText = (id, text) => { byId(id).textContent = text; };

function element(tag, text, className) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  if (className) el.className = className;
  return el;
}

function row(cells) {
  const tr = document.createElement('tr');
  for (const cell of cells) tr.append(cell instanceof Node ? cell : element('td', cell));
  return tr;
}

const numberCell = (n) => element('td', formatCount(n), 'number');

export function showAccount(me) {
  setText('account-id', me.id);
  setText('plan-name', me.plan);
  setText('plan-addons', me.addons.length ? me.addons.join(', ') : 'none');
  setText('plan-included', formatCount(me.usage.included_calls));
  setText('plan-spend-cap', me.plan === 'dev'
    ? 'none on the dev plan (calls stop at the included volume)'
    : `${formatMoney(me.spend_cap)}${me.spend_cap === 0 ? ' (no overage allowed)' : ''}`);
  setText('plan-payment', me.payment === 'ok' ? 'ok' : `failed ${formatInstant(me.payment_failed_at)}`);
  setText('plan-state', me.state === 'active' ? 'active' : `blocked: ${me.state} since ${formatInstant(me.blocked_since)}`);

  setText('usage-month', me.usage.month);
  setText('usage-calls', formatCount(me.usage.calls));
  setText('usage-included', formatCount(me.usage.included_calls));
  const meter = byId('usage-meter');
  meter.max = Math.max(me.usage.included_calls, 1);
  meter.high = meter.max * 0.8;
  meter.value = Math.min(me.usage.calls, meter.max);
  setText('usage-overage', formatMoney(me.usage.overage));
  setText('usage-dev', formatCount(me.usage.dev_calls));
  setText('usage-premium', formatCount(me.usage.premium_calls));

  byId('keys-body').replaceChildren(...me.keys.map((key) => row([
    element('td', key.id, 'id'),
    key.allowed_origins.length ? key.allowed_origins.join(', ') : 'any origin',
    me.addons.length ? me.addons.join(', ') : 'none',
    formatInstant(key.created_at),
    key.disabled_at ? element('td', `disabled ${formatInstant(key.disabled_at)}`, 'disabled') : 'active',
  ])));
}

/** The month's calls per endpoint family, from the rows of /account/usage. */
export function showFamilies(usage) {
  const sums = new Map();
  for (const r of usage.rows) {
    const sum = sums.get(r.family) ?? { calls: 0, dev: 0, premium: 0 };
    sum.calls += r.calls;
    sum.dev += r.dev_calls;
    sum.premium += r.premium_calls;
    sums.set(r.family, sum);
  }
  const body = byId('families-body');
  if (sums.size === 0) {
    body.replaceChildren(row([element('td', 'no calls this month', 'hint')]));
    return;
  }
  body.replaceChildren(...[...sums.keys()].sort().map((family) => {
    const sum = sums.get(family);
    return row([family, numberCell(sum.calls), numberCell(sum.dev), numberCell(sum.premium)]);
  }));
}

/** The blocks and limits refusing the account's calls now, each with what to do. */
export function showNotices(notices) {
  byId('notices').replaceChildren(...notices.map((n) => {
    const box = element('section', undefined, 'notice');
    box.dataset.code = n.code;
    box.setAttribute('role', 'alert');
    box.append(element('h2', n.title));
    if (n.since) box.append(element('p', `Since ${formatInstant(n.since)}.`));
    box.append(element('p', n.remedy));
    const link = element('a', `Go to billing: ${n.link}`);
    link.href = n.link;
    link.rel = 'noreferrer';
    const linkLine = element('p');
    linkLine.append(link);
    box.append(linkLine);
    return box;
  }));
}

export function setStatus(text, isError = false) {
  const status = byId('status');
  status.textContent = text;
  status.classList.toggle('error', isError);
}
