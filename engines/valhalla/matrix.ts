/**
 * POST /matrix through Valhalla's /sources_to_targets. Valhalla answers either the verbose form
 * (`sources_to_targets`: one row per source of `{distance, time, from_index, to_index}`, distance
 * in kilometres) or the concise one (`{durations, distances}`); both are read. A null cell (no
 * path) or a distance over our MATRIX_MAX_KM ceiling fails the whole matrix, as the built-in one.
 */
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import type { ValhallaClient } from './call.ts';
import { costingOf, location, type ValhallaOptions } from './costing.ts';
import { malformed } from './failure.ts';

export interface ValhallaMatrix {
  /** Seconds and metres, row-major (one row per source); null where Valhalla found no path. */
  seconds: (number | null)[][];
  metres: (number | null)[][];
}

export function matrixRequest(sources: readonly LngLat[], targets: readonly LngLat[], options: ValhallaOptions) {
  return { sources: sources.map(location), targets: targets.map(location), ...costingOf(options), units: 'kilometers' };
}

const cell = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The matrix of a /sources_to_targets answer for `rows` sources and `columns` targets. */
export function matrixFromAnswer(json: unknown, rows: number, columns: number): ValhallaMatrix {
  const body = (json as { sources_to_targets?: unknown }).sources_to_targets;
  const seconds: (number | null)[][] = [];
  const metres: (number | null)[][] = [];
  if (Array.isArray(body)) {
    if (body.length !== rows) throw malformed('sources_to_targets', `${body.length} rows for ${rows} sources`);
    body.forEach((row: unknown, i) => {
      if (!Array.isArray(row) || row.length !== columns) throw malformed('sources_to_targets', `row ${i} is not ${columns} cells`);
      const s: (number | null)[] = new Array(columns).fill(null);
      const m: (number | null)[] = new Array(columns).fill(null);
      row.forEach((raw: { to_index?: unknown; time?: unknown; distance?: unknown } | null, j) => {
        const to = Number.isInteger(raw?.to_index) ? (raw!.to_index as number) : j;
        if (to < 0 || to >= columns) throw malformed('sources_to_targets', `to_index ${to}`);
        const time = cell(raw?.time);
        const km = cell(raw?.distance);
        s[to] = time === null || km === null ? null : time;
        m[to] = time === null || km === null ? null : km * 1000;
      });
      seconds.push(s);
      metres.push(m);
    });
    return { seconds, metres };
  }
  const concise = body as { durations?: unknown; distances?: unknown } | undefined;
  if (concise && Array.isArray(concise.durations) && Array.isArray(concise.distances)
    && concise.durations.length === rows && concise.distances.length === rows) {
    for (let i = 0; i < rows; i++) {
      const d = concise.durations[i] as unknown;
      const k = concise.distances[i] as unknown;
      if (!Array.isArray(d) || !Array.isArray(k) || d.length !== columns || k.length !== columns) throw malformed('sources_to_targets', `row ${i} is not ${columns} cells`);
      seconds.push(d.map((v, j) => (cell(v) === null || cell(k[j]) === null ? null : cell(v))));
      metres.push(k.map((v, j) => (cell(v) === null || cell(d[j]) === null ? null : (v as number) * 1000)));
    }
    return { seconds, metres };
  }
  throw malformed('sources_to_targets', 'no sources_to_targets');
}

export async function valhallaMatrix(client: ValhallaClient, sources: readonly LngLat[], targets: readonly LngLat[], options: ValhallaOptions): Promise<ValhallaMatrix> {
  return matrixFromAnswer(await client.call('sources_to_targets', matrixRequest(sources, targets, options)), sources.length, targets.length);
}

/**
 * Our /matrix answer (whole seconds and metres), or null when any pair has no path or is longer
 * than `maxMetres` (the 422 of volume 3).
 */
export function matrixReply(matrix: ValhallaMatrix, maxMetres: number): { durations: number[][]; distances: number[][] } | null {
  for (let i = 0; i < matrix.seconds.length; i++) {
    for (let j = 0; j < matrix.seconds[i]!.length; j++) {
      const m = matrix.metres[i]![j];
      if (matrix.seconds[i]![j] === null || m === null || m === undefined || m > maxMetres) return null;
    }
  }
  return {
    durations: matrix.seconds.map((row) => row.map((v) => Math.round(v!))),
    distances: matrix.metres.map((row) => row.map((v) => Math.round(v!))),
  };
}
