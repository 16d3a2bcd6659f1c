// The account dashboard page: the signed-in account from /account/me, this month's calls from
// /account/usage drawn with uPlot, the blocks refusing its keys and what to do about them.
// A test (or a person in the console) finds everything under window.__canmapDashboard:
//   ready    a promise: {ok: true} once everything is shown, {ok: false, error} otherwise (never rejects)
//   me       the answer of /account/me, usage the answer of /account/usage
//   series   the chart's numbers (usage-series.js), chart the uPlot instance
import { fetchMe, fetchUsage, signOut, tokenOf } from './api.js';
import { noticesOf } from './remedy.js';
import { setStatus, showAccount, showFamilies, showNotices } from './sections.js';
import { drawUsageChart } from './usage-chart.js';
import { usageSeries } from './usage-series.js';

const body = document.body;
const settings = { billingUrl: body.dataset.billingUrl, devPremiumLimit: Number(body.dataset.devPremiumLimit) };
const dashboard = { ready: null, me: null, usage: null, series: null, chart: null };
window.__canmapDashboard = dashboard;

function showSignIn(reason) {
  body.dataset.view = 'signin';
  document.getElementById('signin-reason').textContent = reason ?? '';
}

const failure = (what, answer) => answer.body?.error ?? `${what} answered ${answer.status}`;

async function load() {
  const me = await fetchMe();
  if (me.status === 401) {
    showSignIn(me.body?.error);
    return { ok: false, error: 'signed out' };
  }
  if (me.status !== 200) throw new Error(failure('/account/me', me));
  dashboard.me = me.body;
  showAccount(me.body);
  showNotices(noticesOf(me.body, settings));

  const usage = await fetchUsage(me.body.usage.month);
  if (usage.status === 401) {
    showSignIn(usage.body?.error);
    return { ok: false, error: 'signed out' };
  }
  if (usage.status !== 200) throw new Error(failure('/account/usage', usage));
  dashboard.usage = usage.body;
  showFamilies(usage.body);
  const today = new Date().toISOString().slice(0, 10);
  dashboard.series = usageSeries(usage.body, me.body.usage.included_calls, today);
  dashboard.chart = drawUsageChart(document.getElementById('chart'), dashboard.series);
  return { ok: true };
}

document.getElementById('signin-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const token = tokenOf(document.getElementById('token-input').value);
  if (token) location.assign(`login?${new URLSearchParams({ token })}`);
});

document.getElementById('sign-out').addEventListener('click', async () => {
  await signOut().catch(() => undefined);
  // The server answers the sign-in page now; nothing of the account stays on screen.
  location.replace('./');
});

dashboard.ready = body.dataset.view === 'signin'
  ? Promise.resolve({ ok: false, error: 'signed out' })
  : load().catch((err) => {
    setStatus(`could not load the dashboard: ${err.message}`, true);
    return { ok: false, error: err.message };
  });
