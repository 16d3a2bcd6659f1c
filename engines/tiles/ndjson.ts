import { createReadStream } from 'node:fs';
import type { TilerFeature } from './layer-spec.ts';

/**
 * Newline-delimited GeoJSON (one Feature per line; GeoJSON text sequences' leading RS character
 * and CRLF line ends accepted, blank lines skipped), read as a stream: memory holds one chunk and
 * one line whatever the file's size. A line that is not a Feature with a valid geometry (or a null
 * one) stops the read with its line number.
 */

export class NdjsonError extends Error {
  constructor(readonly path: string, readonly line: number, reason: string) {
    super(`${path} line ${line}: ${reason}`);
    this.name = 'NdjsonError';
  }
}

const NEWLINE = 0x0a;
const DEPTH: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };

export async function* readNdjsonFeatures(path: string): AsyncGenerator<TilerFeature> {
  let rest: Buffer | null = null;
  let line = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const data: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
      line += 1;
      const feature = parseLine(path, line, data.toString('utf8', start, end));
      if (feature) yield feature;
      start = end + 1;
    }
    rest = start < data.length ? data.subarray(start) : null;
  }
  if (rest) {
    const feature = parseLine(path, line + 1, rest.toString('utf8'));
    if (feature) yield feature;
  }
}

function parseLine(path: string, line: number, text: string): TilerFeature | null {
  const trimmed = text.replace(/^\u001e/, '').trim();
  if (!trimmed) return null;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    throw new NdjsonError(path, line, `not JSON (${(err as Error).message})`);
  }
  const feature = value as TilerFeature | null;
  if (typeof feature !== 'object' || feature === null || feature.type !== 'Feature') {
    const what = typeof feature === 'object' && feature && !Array.isArray(feature) ? `a ${JSON.stringify(feature.type)} object` : JSON.stringify(value);
    throw new NdjsonError(path, line, `expected a GeoJSON Feature, got ${what.slice(0, 80)}`);
  }
  if (feature.geometry !== null) {
    const problem = geometryProblem(feature.geometry, 0);
    if (problem) throw new NdjsonError(path, line, problem);
  }
  if (feature.properties !== undefined && feature.properties !== null && typeof feature.properties !== 'object') {
    throw new NdjsonError(path, line, 'properties must be an object or null');
  }
  return feature;
}

function geometryProblem(geometry: unknown, nesting: number): string | null {
  const g = geometry as { type?: unknown; coordinates?: unknown; geometries?: unknown } | null;
  if (typeof g !== 'object' || g === null) return 'geometry must be an object or null';
  if (g.type === 'GeometryCollection') {
    if (!Array.isArray(g.geometries)) return 'GeometryCollection without a geometries array';
    if (nesting > 16) return 'GeometryCollection nested too deep';
    for (const member of g.geometries) {
      const problem = geometryProblem(member, nesting + 1);
      if (problem) return problem;
    }
    return null;
  }
  const depth = typeof g.type === 'string' ? DEPTH[g.type] : undefined;
  if (depth === undefined) return `unknown geometry type ${JSON.stringify(g.type)}`;
  return positionsProblem(g.coordinates, depth) ? `${g.type} coordinates are not ${'arrays of '.repeat(depth)}[longitude, latitude] numbers` : null;
}

/** True when `value` is not `depth` levels of arrays around positions of finite numbers. */
function positionsProblem(value: unknown, depth: number): boolean {
  if (!Array.isArray(value)) return true;
  if (depth === 0) return value.length < 2 || !Number.isFinite(value[0]) || !Number.isFinite(value[1]);
  for (const item of value) if (positionsProblem(item, depth - 1)) return true;
  return false;
}
