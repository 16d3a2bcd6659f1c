/**
 * Street names for the synthetic corpus: the real name list (9,302 Ottawa civic street names)
 * and type list (Canada Post) of mneyrane/CA-address-parser, in title case, combined into
 * "<Name> <Type> [<Direction>]" for English localities and "<Type> <Name> [<Direction>]" with
 * French types for Quebec. Numbered names ("100A") are used in the western provinces only,
 * where numbered street grids are the rule.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { weightedTable, type Random, type WeightedTable } from '../../../lib/seeded-random.ts';
import { sharedData } from '../paths.ts';

export const STREET_DATA_DIR = sharedData('geocoding/mneyrane-CA-address-parser');

/** Canada Post abbreviations in street_types.txt (each sits beside its full word, which we keep). */
const ABBREVIATIONS = new Set([
  'AVE', 'AV', 'BLVD', 'BY PASS', 'CTR', 'CIR', 'CRICT', 'CONC', 'CRNRS', 'CRT', 'CRES', 'CDS', 'DIVERS', 'DR', 'ESPL', 'EXPY',
  'EXTEN', 'FWY', 'GDNS', 'GRNDS', 'HTS', 'HGHLDS', 'HWY', 'HARBR', 'LANDNG', 'LMTS', 'LKOUT', 'MTN', 'ORCH', 'PK', 'PKY',
  'PTWAY', 'PL', 'PLAT', 'PT', 'PVT', 'PROM', 'RG', 'RD', 'RTE', 'SQ', 'ST', 'SUBDIV', 'TERR', 'THICK', 'TLINE', 'TRNABT', 'VILLGE',
]);

/** How often each common type names a street (the other full types of the list share weight 0.15 each). */
const COMMON_TYPES: Record<string, number> = {
  Street: 22, Avenue: 13, Road: 11, Drive: 11, Crescent: 6, Court: 5, Place: 5, Way: 4, Lane: 3, Boulevard: 2.5,
  Circle: 1.5, Trail: 1.5, Terrace: 1, Gate: 1, Close: 0.8, Heights: 0.6, Ridge: 0.6, Grove: 0.6, Park: 0.6, Line: 0.5,
  Highway: 0.5, Parkway: 0.4, Square: 0.3, Bay: 0.6, Landing: 0.3, Mews: 0.3, Private: 0.4, Concession: 0.3,
};

const FRENCH_TYPES: ReadonlyArray<readonly [string, number]> = [
  ['Rue', 60], ['Avenue', 10], ['Boulevard', 7], ['Chemin', 9], ['Rang', 3], ['Montée', 2], ['Place', 3], ['Impasse', 2],
  ['Croissant', 1], ['Terrasse', 1], ['Côte', 1], ['Promenade', 1],
];

const DIRECTIONS_EN = ['North', 'South', 'East', 'West'] as const;
const DIRECTIONS_FR = ['Nord', 'Sud', 'Est', 'Ouest'] as const;
const NUMBERED_PROVINCES = new Set(['AB', 'BC', 'SK', 'MB']);

export interface StreetName {
  /** Full street name as written in the CSV, e.g. "Greenbank Road" or "Rue Laurier Est". */
  label: string;
  /** The name part alone, e.g. "Greenbank" (POI names borrow it). */
  name: string;
}

export interface StreetNamer {
  /** A street name not yet used in this locality (`used` is the locality's set; the label is added). */
  next(random: Random, region: string | null, used: Set<string>): StreetName;
  readonly counts: { names: number; numbered: number; types: number; frenchTypes: number };
}

function titleCase(upper: string): string {
  return upper
    .toLowerCase()
    .replace(/(^|[\s\-'.])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase())
    .replace(/\bMc(\p{L})/gu, (_m, ch: string) => `Mc${ch.toUpperCase()}`);
}

export async function loadStreetNamer(dir = STREET_DATA_DIR): Promise<StreetNamer> {
  const lines = async (file: string) =>
    (await readFile(path.join(dir, file), 'utf8')).split('\n').map((l) => l.trim()).filter(Boolean);
  const rawNames = await lines('street_names.txt');
  const rawTypes = await lines('street_types.txt');
  const words = rawNames.filter((n) => !/^\d/.test(n)).map(titleCase);
  const numbered = rawNames.filter((n) => /^\d/.test(n));
  const fullTypes = rawTypes.filter((t) => !ABBREVIATIONS.has(t)).map(titleCase);
  const englishTypes = weightedTable(fullTypes.map((t) => [t, COMMON_TYPES[t] ?? 0.15] as const));
  const frenchTypes: WeightedTable<string> = weightedTable(FRENCH_TYPES);
  const numberedTypes = weightedTable([['Street', 5], ['Avenue', 5], ['Road', 1], ['Drive', 0.5]] as const);

  const compose = (random: Random, region: string | null, attempt: number): StreetName => {
    const french = region === 'QC';
    const useNumber = region !== null && NUMBERED_PROVINCES.has(region) && random.chance(0.2);
    const name = useNumber ? random.pick(numbered) : random.pick(words);
    const type = french ? random.weighted(frenchTypes) : useNumber ? random.weighted(numberedTypes) : random.weighted(englishTypes);
    const base = french ? `${type} ${name}` : `${name} ${type}`;
    // A direction suffix now and then, and always once plain names run out in a big city.
    if (attempt > 2 || random.chance(0.04)) return { label: `${base} ${random.pick(french ? DIRECTIONS_FR : DIRECTIONS_EN)}`, name };
    return { label: base, name };
  };

  return {
    next(random, region, used) {
      let street = compose(random, region, 0);
      for (let attempt = 1; attempt < 8 && used.has(street.label); attempt++) street = compose(random, region, attempt);
      used.add(street.label);
      return street;
    },
    counts: { names: words.length, numbered: numbered.length, types: fullTypes.length, frenchTypes: FRENCH_TYPES.length },
  };
}
