import yauzl from 'yauzl';

/**
 * An independent reading of a GTFS zip for the transit API tests: its own CSV parsing, calendar
 * expansion and North American DST rule (no DuckDB, no Intl), so expected departures do not
 * come from the code under test.
 */
export type Table = Record<string, string>[];

export async function readGtfsZip(file: string): Promise<Record<string, Table>> {
  const texts = await new Promise<Record<string, string>>((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: Record<string, string> = {};
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('.txt')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out[entry.fileName.split('/').pop()!] = Buffer.concat(chunks).toString('utf8');
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
  return Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, parseCsv(text)]));
}

export function parseCsv(text: string): Table {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') { cell += '"'; i++; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(cell); cell = '';
      if (row.some((v) => v !== '')) rows.push(row);
      row = [];
    } else cell += c;
  }
  row.push(cell);
  if (row.some((v) => v !== '')) rows.push(row);
  const [header, ...data] = rows;
  const names = header!.map((h) => h.trim());
  return data.map((r) => Object.fromEntries(names.map((n, i) => [n, (r[i] ?? '').trim()])));
}

/** Seconds of an H+:MM:SS GTFS time, null when empty. */
export function gtfsSeconds(time: string): number | null {
  if (!time) return null;
  const [h, m, s] = time.split(':').map(Number) as [number, number, number];
  return h * 3600 + m * 60 + s;
}

const DAY_MS = 86_400_000;

/** 'YYYYMMDD' → days since 1970-01-01. */
export const dayOf = (yyyymmdd: string) =>
  Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8))) / DAY_MS;

/** The n-th Sunday (1-based) of month (1-12) of year, as days since epoch. */
function nthSunday(year: number, month: number, n: number): number {
  const first = Date.UTC(year, month - 1, 1) / DAY_MS;
  const weekday = new Date(first * DAY_MS).getUTCDay();
  return first + ((7 - weekday) % 7) + (n - 1) * 7;
}

/**
 * UTC offset (hours) at local noon of `day` in a North American zone that observes DST from the
 * second Sunday of March to the first Sunday of November (rules since 2007).
 */
export function noonOffsetHours(day: number, standardOffset: number, observesDst = true): number {
  if (!observesDst) return standardOffset;
  const year = new Date(day * DAY_MS).getUTCFullYear();
  return day >= nthSunday(year, 3, 2) && day < nthSunday(year, 11, 1) ? standardOffset + 1 : standardOffset;
}

/** UTC epoch seconds of "noon minus 12 h" of a service day, given the offset at noon. */
export const baseEpoch = (day: number, offsetHours: number) => day * 86_400 + 12 * 3600 - offsetHours * 3600 - 12 * 3600;

export interface ExpectedDeparture {
  stop_id: string;
  trip_id: string;
  route_id: string;
  departure: number;
  arrival: number;
  stop_sequence: number;
}

/**
 * Departures at the raw stops in [from, to) (epoch seconds), for a feed whose agency zone has
 * the given standard offset and DST rule, ordered as the API orders them.
 */
export function expectedDepartures(
  feed: Record<string, Table>,
  rawStops: string[],
  from: number,
  to: number,
  zone: { standardOffset: number; observesDst: boolean },
): ExpectedDeparture[] {
  const runs = new Map<string, Set<number>>();
  const add = (service: string, day: number) => {
    if (!runs.has(service)) runs.set(service, new Set());
    runs.get(service)!.add(day);
  };
  for (const c of feed['calendar.txt'] ?? []) {
    const flags = [c.sunday, c.monday, c.tuesday, c.wednesday, c.thursday, c.friday, c.saturday];
    for (let d = dayOf(c.start_date!); d <= dayOf(c.end_date!); d++) {
      if (flags[new Date(d * DAY_MS).getUTCDay()] === '1') add(c.service_id!, d);
    }
  }
  for (const x of feed['calendar_dates.txt'] ?? []) {
    if (x.exception_type === '1') add(x.service_id!, dayOf(x.date!));
  }
  for (const x of feed['calendar_dates.txt'] ?? []) {
    if (x.exception_type === '2') runs.get(x.service_id!)?.delete(dayOf(x.date!));
  }
  const trips = new Map(feed['trips.txt']!.map((t) => [t.trip_id!, t]));
  const wanted = new Set(rawStops);
  const out: ExpectedDeparture[] = [];
  const firstDay = Math.floor(from / 86_400) - 6;
  const lastDay = Math.ceil(to / 86_400) + 1;
  for (const st of feed['stop_times.txt']!) {
    if (!wanted.has(st.stop_id!)) continue;
    const dep = gtfsSeconds(st.departure_time!) ?? gtfsSeconds(st.arrival_time!);
    if (dep === null) continue;
    const arr = gtfsSeconds(st.arrival_time!) ?? dep;
    const trip = trips.get(st.trip_id!)!;
    for (const day of runs.get(trip.service_id!) ?? []) {
      if (day < firstDay || day > lastDay) continue;
      const base = baseEpoch(day, noonOffsetHours(day, zone.standardOffset, zone.observesDst));
      if (base + dep >= from && base + dep < to) {
        out.push({ stop_id: st.stop_id!, trip_id: st.trip_id!, route_id: trip.route_id!, departure: base + dep, arrival: base + arr, stop_sequence: Number(st.stop_sequence) });
      }
    }
  }
  return out.sort((a, b) => a.departure - b.departure || a.stop_sequence - b.stop_sequence || (a.trip_id < b.trip_id ? -1 : a.trip_id > b.trip_id ? 1 : 0));
}
