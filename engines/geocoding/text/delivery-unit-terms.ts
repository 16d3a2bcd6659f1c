/**
 * Postal delivery terms and unit designators, and the numbered-route words that tell a route's
 * "#N" from a unit.
 */
import { isLeadingCivic, wordAt, type Item } from './query-lex.ts';
import { canonicalToken } from './street-terms.ts';

export const GLUED_UNIT = /^(apt|app|appt|unit|suite|ste|bureau|local|rm|ph)(\d+[a-z]?)$/;
export const GLUED_DELIVERY = /^(rr|box|cp|ss|mr|site|comp)(\d+)$/;

/** Phrases (folded tokens) introducing a delivery mode; `arg` says what must follow. */
export const DELIVERY_PHRASES: ReadonlyArray<{ words: readonly string[]; arg: 'number' | 'none' | 'name' | 'optional-number' }> = [
  { words: ['p', 'o', 'box'], arg: 'optional-number' },
  { words: ['po', 'box'], arg: 'optional-number' },
  { words: ['post', 'office', 'box'], arg: 'optional-number' },
  { words: ['pob'], arg: 'number' },
  { words: ['box'], arg: 'number' },
  { words: ['c', 'p'], arg: 'number' },
  { words: ['cp'], arg: 'number' },
  { words: ['case', 'postale'], arg: 'optional-number' },
  { words: ['r', 'r'], arg: 'number' },
  { words: ['rr'], arg: 'number' },
  { words: ['rural', 'route'], arg: 'number' },
  { words: ['route', 'rurale'], arg: 'number' },
  { words: ['ss'], arg: 'number' },
  { words: ['suburban', 'service'], arg: 'number' },
  { words: ['mr'], arg: 'number' },
  { words: ['mobile', 'route'], arg: 'number' },
  { words: ['general', 'delivery'], arg: 'none' },
  { words: ['gd'], arg: 'none' },
  { words: ['poste', 'restante'], arg: 'none' },
  { words: ['livraison', 'generale'], arg: 'none' },
  { words: ['stn'], arg: 'name' },
  { words: ['succ'], arg: 'name' },
  { words: ['succursale'], arg: 'name' },
];
/** Only delivery terms when another delivery term is present ("Site 5 Comp 12 RR 1", "Station A"). */
export const SECONDARY_DELIVERY = new Set(['site', 'comp', 'compartment', 'station']);

export const UNIT_WORDS = new Set([
  'apt', 'apartment', 'app', 'appt', 'appartement', 'unit', 'unite', 'suite', 'ste', 'bureau', 'bur',
  'local', 'room', 'rm', 'ph', 'penthouse', 'logement',
]);

export const BUILDING_WORDS = new Set(['bldg', 'building', 'batiment', 'edifice', 'bat']);

/** Street types after which "#7" is a route number, not a unit ("Hwy #7", "Route #132"). */
const NUMBERED_ROUTE_TYPES = new Set(['hwy', 'rte', 'rd', 'fwy', 'expy', 'rg', 'twp', 'conc', 'line', 'ch']);
/** Words that name a numbered route's kind, not a street ("County Road #5", "Regional Rd #7"). */
const ROUTE_QUALIFIERS = new Set(['county', 'regional', 'region', 'provincial', 'secondary', 'township', 'concession', 'range']);
/** Route types whose "#N" is always the route number ("123 Kings Hwy #2"). */
const HIGHWAY_TYPES = new Set(['hwy', 'fwy', 'expy', 'rte']);

/**
 * "#N" after a route type is the route's number ("Hwy #7", "123 County Rd #5") unless a civic number
 * and a street name come first (highways excepted): "14231 Burrows Road #203" is unit 203 of 14231 Burrows Road.
 */
export function hashIsRouteNumber(items: Item[], removed: Uint8Array, i: number): boolean {
  let k = i - 1;
  while (k >= 0 && removed[k]) k--;
  const type = wordAt(items, k);
  if (type === undefined || !NUMBERED_ROUTE_TYPES.has(canonicalToken(type))) return false;
  if (HIGHWAY_TYPES.has(canonicalToken(type))) return true;
  let lead = 0;
  while (lead < k && removed[lead]) lead++;
  if (lead >= k || !(items[lead]!.kind === 'unitcivic' || isLeadingCivic(items, lead))) return true;
  for (let j = lead + 1; j < k; j++) {
    const w = removed[j] ? undefined : wordAt(items, j);
    if (w !== undefined && !NUMBERED_ROUTE_TYPES.has(canonicalToken(w)) && !ROUTE_QUALIFIERS.has(w)) return false;
  }
  return true;
}
