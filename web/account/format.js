// Number and date formats of the dashboard: fixed (not the browser's locale), so tests and
// screenshots read the same everywhere.

const COUNT = new Intl.NumberFormat('en-US');
const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const formatCount = (n) => COUNT.format(n);
export const formatMoney = (n) => MONEY.format(n);

/** An ISO instant as `YYYY-MM-DD HH:MM UTC`. */
export function formatInstant(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The first day of the UTC month after `month` (YYYY-MM), as YYYY-MM-DD. */
export function nextMonthStart(month) {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}
