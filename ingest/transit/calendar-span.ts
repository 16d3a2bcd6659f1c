/**
 * Longest span of dates one calendar.txt row is expanded to. Real feeds state end dates decades
 * ahead (VIA Rail's run 2023 → 2059); a row ending 99991231 would otherwise become millions of
 * service days. Derived from the row alone, so the same feed always builds the same release.
 */
export const MAX_CALENDAR_YEARS = 50;

const date = (column: string, strict: boolean) => `${strict ? 'strptime' : 'TRY_STRPTIME'}(${column}, '%Y%m%d')`;

/** SQL TIMESTAMP: the first date after a calendar row's expansion limit (start_date + MAX_CALENDAR_YEARS). */
function limitSql(strict: boolean): string {
  return `(${date('start_date', strict)} + INTERVAL ${MAX_CALENDAR_YEARS} YEAR)`;
}

/** SQL TIMESTAMP: the last date a (validated) calendar row is expanded to. */
export const CALENDAR_LAST_DAY_SQL = `least(${date('end_date', true)}, ${limitSql(true)} - INTERVAL 1 DAY)`;

/** SQL condition: the calendar row runs past its expansion limit (false for unparseable dates, which validation refuses). */
export const CALENDAR_CAPPED_SQL = `coalesce(${date('end_date', false)} >= ${limitSql(false)}, false)`;
