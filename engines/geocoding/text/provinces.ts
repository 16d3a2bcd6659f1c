/**
 * The 13 provinces and territories with every English/French name and abbreviation, and the
 * resolvers that turn any spelling into the two-letter code.
 */
import { fold } from './fold.ts';

export interface Province {
  /** Canada Post two-letter code. */
  code: string;
  /** GeoNames admin1 code (CA.xx). */
  geonamesAdmin1: string;
  /** Statistics Canada SGC province code. */
  sgc: string;
  names: { en: string; fr: string };
  /** Every spelling as written (display); matched after fold(). */
  variants: string[];
}

export const PROVINCES: readonly Province[] = [
  {
    code: 'AB', geonamesAdmin1: '01', sgc: '48', names: { en: 'Alberta', fr: 'Alberta' },
    variants: ['Alberta', 'Alta.', 'Alb.', 'AB', 'CA-AB'],
  },
  {
    code: 'BC', geonamesAdmin1: '02', sgc: '59', names: { en: 'British Columbia', fr: 'Colombie-Britannique' },
    variants: ['British Columbia', 'Colombie-Britannique', 'B.C.', 'BC', 'C.-B.', 'CB', 'CA-BC'],
  },
  {
    code: 'MB', geonamesAdmin1: '03', sgc: '46', names: { en: 'Manitoba', fr: 'Manitoba' },
    variants: ['Manitoba', 'Man.', 'MB', 'CA-MB'],
  },
  {
    code: 'NB', geonamesAdmin1: '04', sgc: '13', names: { en: 'New Brunswick', fr: 'Nouveau-Brunswick' },
    variants: ['New Brunswick', 'Nouveau-Brunswick', 'N.B.', 'N.-B.', 'NB', 'CA-NB'],
  },
  {
    code: 'NL', geonamesAdmin1: '05', sgc: '10', names: { en: 'Newfoundland and Labrador', fr: 'Terre-Neuve-et-Labrador' },
    variants: [
      'Newfoundland and Labrador', 'Newfoundland & Labrador', 'Newfoundland-Labrador', 'Newfoundland',
      'Labrador', 'Terre-Neuve-et-Labrador', 'Terre-Neuve', 'Nfld.', 'Nfld. & Lab.', 'Nfld. and Lab.', 'Nfld.-Lab.',
      'T.-N.-L.', 'T.-N.', 'NL', 'NF', 'CA-NL',
    ],
  },
  {
    code: 'NS', geonamesAdmin1: '07', sgc: '12', names: { en: 'Nova Scotia', fr: 'Nouvelle-Écosse' },
    variants: ['Nova Scotia', 'Nouvelle-Écosse', 'N.S.', 'N.-É.', 'NS', 'CA-NS'],
  },
  {
    code: 'ON', geonamesAdmin1: '08', sgc: '35', names: { en: 'Ontario', fr: 'Ontario' },
    variants: ['Ontario', 'Ont.', 'ON', 'CA-ON'],
  },
  {
    code: 'PE', geonamesAdmin1: '09', sgc: '11', names: { en: 'Prince Edward Island', fr: 'Île-du-Prince-Édouard' },
    variants: [
      'Prince Edward Island', 'Île-du-Prince-Édouard', 'P.E.I.', 'PEI', 'Î.-P.-É.', 'IPE', 'PE', 'CA-PE',
    ],
  },
  {
    code: 'QC', geonamesAdmin1: '10', sgc: '24', names: { en: 'Quebec', fr: 'Québec' },
    variants: ['Quebec', 'Québec', 'Province de Québec', 'Province of Quebec', 'Que.', 'Qué.', 'P.Q.', 'PQ', 'QC', 'CA-QC'],
  },
  {
    code: 'SK', geonamesAdmin1: '11', sgc: '47', names: { en: 'Saskatchewan', fr: 'Saskatchewan' },
    variants: ['Saskatchewan', 'Sask.', 'SK', 'CA-SK'],
  },
  {
    code: 'YT', geonamesAdmin1: '12', sgc: '60', names: { en: 'Yukon', fr: 'Yukon' },
    variants: ['Yukon', 'Yukon Territory', 'The Yukon', 'Territoire du Yukon', 'Y.T.', 'Yuk.', 'Yn', 'YT', 'YK', 'CA-YT'],
  },
  {
    code: 'NT', geonamesAdmin1: '13', sgc: '61', names: { en: 'Northwest Territories', fr: 'Territoires du Nord-Ouest' },
    variants: [
      'Northwest Territories', 'North-West Territories', 'North West Territories', 'Territoires du Nord-Ouest',
      'N.W.T.', 'NWT', 'T.N.-O.', 'TNO', 'NT', 'CA-NT',
    ],
  },
  {
    code: 'NU', geonamesAdmin1: '14', sgc: '62', names: { en: 'Nunavut', fr: 'Nunavut' },
    variants: ['Nunavut', 'Nvt.', 'NU', 'CA-NU'],
  },
];

/**
 * Folded spellings that are ordinary words or street directionals when met inside a free-text
 * query ("NE" is a Calgary quadrant as well as N.-É.); resolveRegion still accepts them.
 */
const NOT_IN_FREE_TEXT = new Set(['ne', 'n e']);

const BY_CODE = new Map<string, Province>();
const BY_ADMIN1 = new Map<string, Province>();
const BY_SGC = new Map<string, Province>();
/** fold()ed spelling (space-joined tokens) → code. */
const SPELLINGS = new Map<string, string>();
/** Same, restricted to what is safe inside free text. */
const FREE_TEXT_SPELLINGS = new Map<string, string>();
let maxSpanTokens = 1;

function addSpelling(key: string, code: string): void {
  const prev = SPELLINGS.get(key);
  if (prev !== undefined && prev !== code) throw new Error(`provinces: ${key} is both ${prev} and ${code}`);
  SPELLINGS.set(key, code);
  if (!NOT_IN_FREE_TEXT.has(key)) FREE_TEXT_SPELLINGS.set(key, code);
  maxSpanTokens = Math.max(maxSpanTokens, key.split(' ').length);
}

for (const p of PROVINCES) {
  BY_CODE.set(p.code, p);
  BY_ADMIN1.set(p.geonamesAdmin1, p);
  BY_SGC.set(p.sgc, p);
  for (const v of [p.code, p.names.en, p.names.fr, ...p.variants]) {
    const key = fold(v);
    addSpelling(key, p.code);
    const parts = key.split(' ');
    // Dotted initials: "C.-B." folds to "c b"; also accept "cb" (and "cb" → "c b").
    if (parts.length > 1 && parts.every((t) => t.length === 1)) addSpelling(parts.join(''), p.code);
    if (parts.length === 1 && key.length >= 2 && key.length <= 3 && /^[a-z]+$/.test(key) && key !== 'man' && key !== 'que') {
      addSpelling(key.split('').join(' '), p.code);
    }
    // "and"/"et"/"&" optional: "newfoundland labrador", "terre neuve labrador".
    const noConj = parts.filter((t) => t !== 'and' && t !== 'et');
    if (noConj.length !== parts.length && noConj.length > 0) addSpelling(noConj.join(' '), p.code);
  }
}

/** Any spelling (name, abbreviation, postal code, ISO 3166-2) → two-letter code; null when none. */
export function resolveRegion(text: string): string | null {
  const key = fold(text);
  if (key === '') return null;
  const hit = SPELLINGS.get(key);
  if (hit !== undefined) return hit;
  const compact = key.replace(/ /g, '');
  return compact !== key ? SPELLINGS.get(compact) ?? null : null;
}

const COUNTRY_TOKENS = new Set(['canada', 'ca', 'can']);

/**
 * Province spellings at the end of a folded-token query ("... toronto on", "... gimli mb canada",
 * "... vancouver british columbia"): the longest run ending at the current tail, repeated leftward,
 * with trailing country words skipped. Only the tail counts, because province names are also street
 * and place names elsewhere in a query ("Manitoba Ave", "rue Ontario", "Quebec City",
 * "Niagara on the Lake"). Spans are [start, end) indices into `tokens`, in order.
 */
export function regionTokenSpans(tokens: string[]): Array<{ code: string; start: number; end: number }> {
  const spans: Array<{ code: string; start: number; end: number }> = [];
  let end = tokens.length;
  while (end > 0 && COUNTRY_TOKENS.has(tokens[end - 1]!)) end -= 1;
  while (end > 0) {
    let found: { code: string; start: number } | null = null;
    for (let len = Math.min(maxSpanTokens, end); len >= 1; len--) {
      const start = end - len;
      const key = len === 1 ? tokens[start]! : tokens.slice(start, end).join(' ');
      const code = FREE_TEXT_SPELLINGS.get(key);
      if (code !== undefined) {
        found = { code, start };
        break;
      }
    }
    if (!found) break;
    spans.unshift({ code: found.code, start: found.start, end });
    end = found.start;
    while (end > 0 && COUNTRY_TOKENS.has(tokens[end - 1]!)) end -= 1;
  }
  return spans;
}

/** GeoNames admin1 code ("02", "2", "CA.02") → province. */
export function provinceByAdmin1(admin1: string): Province | undefined {
  const a = admin1.startsWith('CA.') ? admin1.slice(3) : admin1;
  return BY_ADMIN1.get(a.length === 1 ? `0${a}` : a);
}

/** Two-letter code (any case) → province. */
export function provinceByCode(code: string): Province | undefined {
  return BY_CODE.get(code.toUpperCase());
}

/** Statistics Canada SGC province code ("59") → province. */
export function provinceBySgc(sgc: string): Province | undefined {
  return BY_SGC.get(sgc);
}
