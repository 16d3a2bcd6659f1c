import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { InvalidInputError } from '../errors.ts';

/** The input kinds `canmap ingest geocoding --input KIND:PATH` accepts, in build order. */
export const GEOCODING_INPUT_KINDS = ['regions', 'localities', 'osm', 'addresses-oda', 'addresses-oa'] as const;
export type GeocodingInputKind = (typeof GEOCODING_INPUT_KINDS)[number];

export const GeocodingInput = Type.Object(
  {
    kind: Type.Union(GEOCODING_INPUT_KINDS.map((k) => Type.Literal(k))),
    path: Type.String({ pattern: '^/', description: 'absolute path, read by the worker' }),
  },
  { additionalProperties: false },
);
export type GeocodingInput = Static<typeof GeocodingInput>;

/** Dataset label, licence and attribution recorded for each kind of input (manifest, places meta). */
export const INPUT_TERMS: Record<GeocodingInputKind, { source: string; licence: string; attribution: string }> = {
  osm: { source: 'osm', licence: 'ODbL-1.0', attribution: '© OpenStreetMap contributors' },
  localities: { source: 'geonames', licence: 'CC-BY-4.0', attribution: 'GeoNames (geonames.org)' },
  regions: { source: 'regions', licence: 'as published', attribution: 'Province and territory boundaries' },
  'addresses-oa': { source: 'openaddresses', licence: 'per source (see OpenAddresses)', attribution: 'OpenAddresses contributors' },
  'addresses-oda': {
    source: 'oda',
    licence: 'Open Government Licence - Canada',
    attribution: 'Statistics Canada, Open Database of Addresses',
  },
};

/** `KIND:PATH` → an input with an absolute path to an existing file. */
export async function parseInputSpec(spec: string, cwd = process.cwd()): Promise<GeocodingInput> {
  const colon = spec.indexOf(':');
  const kind = colon > 0 ? spec.slice(0, colon) : '';
  if (!(GEOCODING_INPUT_KINDS as readonly string[]).includes(kind)) {
    throw new InvalidInputError(`--input ${JSON.stringify(spec)}: expected KIND:PATH with KIND one of ${GEOCODING_INPUT_KINDS.join(', ')}`);
  }
  const file = path.resolve(cwd, spec.slice(colon + 1));
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new InvalidInputError(`--input ${kind}: ${file} is not a readable file`);
  return { kind: kind as GeocodingInputKind, path: file };
}

/** Inputs in build order; at most one of each kind except addresses and osm, which may repeat. */
export function orderInputs(inputs: GeocodingInput[]): GeocodingInput[] {
  if (!inputs.length) throw new InvalidInputError(`at least one --input is required (${GEOCODING_INPUT_KINDS.join(', ')})`);
  for (const single of ['regions', 'localities'] as const) {
    if (inputs.filter((i) => i.kind === single).length > 1) throw new InvalidInputError(`--input ${single} may be given once`);
  }
  const seen = new Set<string>();
  for (const input of inputs) {
    if (seen.has(input.path)) throw new InvalidInputError(`${input.path} is given twice`);
    seen.add(input.path);
  }
  return [...inputs].sort((a, b) => GEOCODING_INPUT_KINDS.indexOf(a.kind) - GEOCODING_INPUT_KINDS.indexOf(b.kind));
}
