/**
 * A compact description of one sample GTFS feed: stops, routes and services as written, trips as
 * stopping patterns (minutes after the trip's first departure) times a list of start times.
 * render.ts expands it into the GTFS .txt files.
 */
export interface SampleFeed {
  id: string;
  timezone: string;
  /** agency_lang and feed_lang */
  lang: 'en' | 'fr';
  agencies: SampleAgency[];
  stops: SampleStop[];
  routes: SampleRoute[];
  services: SampleService[];
  exceptions?: SampleException[];
  patterns: SamplePattern[];
  /** stop_sequence step; GTFS only asks for increasing values, so gaps (10, 20, ...) are valid. */
  sequenceStep?: number;
}

export interface SampleAgency {
  id: string;
  name: string;
  url: string;
  phone?: string;
}

export interface SampleStop {
  id: string;
  name: string;
  lat: number;
  lon: number;
  code?: string;
  /** 1 = station (a parent of platforms); omitted = stop or platform */
  locationType?: 1;
  parent?: string;
  platformCode?: string;
  /** 0 unknown, 1 accessible, 2 not accessible */
  wheelchair?: 0 | 1 | 2;
}

export interface SampleRoute {
  id: string;
  agencyId: string;
  shortName: string;
  longName: string;
  /** 2 rail, 3 bus, 4 ferry */
  type: 2 | 3 | 4;
  color: string;
  textColor: string;
}

export interface SampleService {
  id: string;
  /** monday..sunday as seven 0/1 characters, e.g. '1111100' */
  days: string;
  start?: string;
  end?: string;
}

export interface SampleException {
  serviceId: string;
  /** YYYYMMDD */
  date: string;
  /** 1 = service added on that date, 2 = removed */
  type: 1 | 2;
}

export interface SamplePattern {
  routeId: string;
  serviceId: string;
  directionId: 0 | 1;
  headsign: string;
  /** [stop_id, arrival minutes, departure minutes (defaults to arrival)] after the first departure */
  stops: [string, number, number?][];
  /** first departures, minutes after the service day's midnight (over 1440 = after midnight) */
  starts: number[];
  /** trip_short_name = firstTrainNumber + 2 × index (train numbers, as commuter rail prints them) */
  firstTrainNumber?: number;
}

export const SERVICE_START = '20260101';
export const SERVICE_END = '20271231';
export const FEED_VERSION = '2026.11-sample.1';
export const PUBLISHER_NAME = 'canmap sample data';
export const PUBLISHER_URL = 'https://example.org/canmap/samples';

/** 'HH:MM' (hours may exceed 23) → minutes after midnight. */
export function hm(text: string): number {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!match) throw new Error(`bad time ${text}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Minutes from `from` to `to` inclusive, every `step` minutes. */
export function every(from: string, to: string, step: number): number[] {
  const times: number[] = [];
  for (let t = hm(from); t <= hm(to); t += step) times.push(t);
  return times;
}

/** Sorted union of several start lists. */
export function merge(...lists: number[][]): number[] {
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

/** Minutes → GTFS 'HH:MM:SS' (25:05:00 is five past one the next morning). */
export function gtfsTime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`;
}
