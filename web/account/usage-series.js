// The chart's numbers from GET /account/usage: one value per day of the month for each endpoint
// family (billable calls), the month's running total, and the plan's included calls. Days after
// `lastDay` (the rest of the current month) are null, so nothing is drawn for them.

/** Every UTC day from `from` to `to` (YYYY-MM-DD), both included. */
function daysOf(from, to) {
  const days = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * @param usage the answer of /account/usage
 * @param includedCalls the plan's included calls per month (from /account/me)
 * @param lastDay the last day to draw (YYYY-MM-DD); the month's last day when omitted
 * @returns {{days: string[], x: number[], families: Record<string, (number|null)[]>, total: (number|null)[], included: number[]}}
 */
export function usageSeries(usage, includedCalls, lastDay = usage.to) {
  const days = daysOf(usage.from, usage.to);
  const index = new Map(days.map((day, i) => [day, i]));
  const lastRow = usage.rows.reduce((last, row) => (row.day > last ? row.day : last), '');
  const cut = index.get(lastDay > lastRow ? lastDay : lastRow) ?? days.length - 1;
  const blank = () => days.map((_, i) => (i <= cut ? 0 : null));

  const families = {};
  for (const name of [...new Set(usage.rows.map((row) => row.family))].sort()) families[name] = blank();
  const daily = blank();
  for (const row of usage.rows) {
    const i = index.get(row.day);
    if (i === undefined) continue;
    families[row.family][i] += row.calls;
    daily[i] += row.calls;
  }
  let running = 0;
  const total = daily.map((calls) => (calls === null ? null : (running += calls)));
  return { days, x: days.map((_, i) => i + 1), families, total, included: days.map(() => includedCalls) };
}
