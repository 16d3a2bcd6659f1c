/**
 * The requests the benchmark sends, drawn from the generated corpus's samples: free-text searches
 * as people type them (full addresses, unit forms, street + city, city names, POI names, postal
 * codes; some lower-cased, abbreviated or with one typo), autocomplete prefixes of those, reverse
 * points near addresses and category searches near them. Seeded, so each run asks the same.
 */
import { TAXONOMY } from '../../engines/geocoding/taxonomy.ts';
import { POI_CATEGORIES } from '../../test/support/geocoding/poi-kinds.ts';
import { seededRandom, weightedTable, type Random } from '../../lib/seeded-random.ts';
import type { CorpusSamples, SampleAddress } from '../../test/support/geocoding/samples.ts';

export type SearchShape = 'address' | 'unit address' | 'postal address' | 'street' | 'city' | 'poi' | 'postcode';

export interface SearchQuery {
  q: string;
  shape: SearchShape;
  typo: boolean;
  /** For an address query without a typo: what the top result should be. */
  expect?: SampleAddress;
}

const ABBREVIATIONS: Record<string, string> = {
  Street: 'St', Avenue: 'Ave', Road: 'Rd', Drive: 'Dr', Crescent: 'Cres', Court: 'Crt', Place: 'Pl', Boulevard: 'Blvd',
  Lane: 'Ln', Terrace: 'Terr', Circle: 'Cir', Highway: 'Hwy', Parkway: 'Pky', Square: 'Sq', Trail: 'Trl',
  North: 'N', South: 'S', East: 'E', West: 'W', Nord: 'N', Sud: 'S', Est: 'E', Ouest: 'O', Chemin: 'Ch',
};

function abbreviate(street: string): string {
  return street.split(' ').map((w) => ABBREVIATIONS[w] ?? w).join(' ');
}

/** One edit (swap, drop, double or replace a letter) inside one word of ≥ 5 letters; the text itself when none has. */
export function withTypo(text: string, random: Random): string {
  const words = text.split(' ');
  const candidates = words.map((w, i) => [w, i] as const).filter(([w]) => /^\p{L}{5,}$/u.test(w));
  if (!candidates.length) return text;
  const [word, index] = random.pick(candidates);
  const at = 1 + random.int(word.length - 2);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const edits = [
    () => word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2),
    () => word.slice(0, at) + word.slice(at + 1),
    () => word.slice(0, at) + word[at] + word.slice(at),
    () => word.slice(0, at) + random.pick([...letters]) + word.slice(at + 1),
  ];
  words[index] = random.pick(edits)();
  return words.join(' ');
}

const SHAPES = weightedTable<SearchShape>([
  ['address', 35], ['unit address', 5], ['postal address', 5], ['street', 15], ['city', 10], ['poi', 25], ['postcode', 5],
]);

export function searchQueries(samples: CorpusSamples, count: number, seed = 11): SearchQuery[] {
  const random = seededRandom(seed);
  const units = samples.addresses.filter((a) => a.unit);
  const withPostcode = samples.addresses.filter((a) => a.postcode);
  const cities = weightedTable(samples.localities.map((l) => [l, Math.sqrt(l.population + 1)] as const));
  const out: SearchQuery[] = [];
  while (out.length < count) {
    const shape = random.weighted(SHAPES);
    let q: string;
    let expect: SampleAddress | undefined;
    const street = (s: string) => (random.chance(0.3) ? abbreviate(s) : s);
    switch (shape) {
      case 'address': {
        const a = random.pick(samples.addresses);
        q = `${a.number} ${street(a.street)} ${a.city}`;
        if (!a.unit) expect = a;
        break;
      }
      case 'unit address': {
        const a = random.pick(units);
        q = random.chance(0.5) ? `${a.unit}-${a.number} ${street(a.street)} ${a.city}` : `${a.number} ${street(a.street)} Apt ${a.unit}, ${a.city}`;
        break;
      }
      case 'postal address': {
        const a = random.pick(withPostcode);
        q = `${a.number} ${street(a.street)}, ${a.city}, ${a.region} ${a.postcode}`;
        if (!a.unit) expect = a;
        break;
      }
      case 'street': {
        const s = random.pick(samples.streets);
        q = `${street(s.street)}, ${s.city}`;
        break;
      }
      case 'city': {
        const l = random.weighted(cities);
        q = random.chance(0.3) ? `${l.name}, ${l.region}` : l.name;
        break;
      }
      case 'poi': {
        const p = random.pick(samples.pois);
        const name = p.nameFr && random.chance(0.3) ? p.nameFr : p.name;
        q = random.chance(0.5) ? `${name} ${p.city}` : name;
        break;
      }
      case 'postcode': {
        const code = random.pick(withPostcode).postcode;
        q = random.chance(0.5) ? code.replace(' ', '').toLowerCase() : code;
        break;
      }
    }
    if (random.chance(0.3)) q = q.toLowerCase();
    const typo = random.chance(0.15) && shape !== 'postcode';
    if (typo) {
      q = withTypo(q, random);
      expect = undefined;
    }
    out.push({ q, shape, typo, expect });
  }
  return out;
}

/** Prefixes of search-like text of every length from 2 characters up, no typos. */
export function autocompleteQueries(samples: CorpusSamples, count: number, seed = 12): string[] {
  const random = seededRandom(seed);
  return searchQueries(samples, count, seed + 1).map(({ shape }) => {
    const whole = (() => {
      switch (shape) {
        case 'address':
        case 'unit address':
        case 'postal address': {
          const a = random.pick(samples.addresses);
          return `${a.number} ${a.street} ${a.city}`;
        }
        case 'street':
          return random.pick(samples.streets).street;
        case 'poi':
          return random.pick(samples.pois).name;
        default:
          return random.pick(samples.localities).name;
      }
    })();
    const length = 2 + random.int(Math.max(1, whole.length - 1));
    return whole.slice(0, length).trimEnd() || whole.slice(0, 2);
  });
}

export interface Point {
  lng: number;
  lat: number;
}

/** Points within ~150 m of sampled addresses. */
export function pointsNearAddresses(samples: CorpusSamples, count: number, seed = 13): Point[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const a = random.pick(samples.addresses);
    return { lng: a.lng + (random() - 0.5) * 0.004, lat: a.lat + (random() - 0.5) * 0.0027 };
  });
}

/** `category` values for nearby: taxonomy ids the corpus has, or (a third of them) an English or French alias of one. */
export function nearbyCategories(count: number, seed = 14): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const id = random.pick(POI_CATEGORIES);
    if (!random.chance(1 / 3)) return id;
    const entry = TAXONOMY.find((t) => t.id === id)!;
    return random.pick(entry.aliases.filter((a) => !a.includes(' ')).length ? entry.aliases.filter((a) => !a.includes(' ')) : entry.aliases);
  });
}
