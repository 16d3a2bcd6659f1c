/**
 * English and French street types, directionals, saint forms and ordinals mapped to one
 * canonical token, so "boul"/"boulevard"/"blvd", "n"/"nord"/"north", "st"/"street"/"saint"
 * match both ways. Keys are fold()ed tokens; unknown tokens pass through unchanged.
 *
 * Ordinals become the bare number: 1st/1er/1re/1ere/first/premier/premiere → "1",
 * 4e/4th/4eme/4ieme/fourth/quatrieme → "4" (so "4e Avenue" = "4th Avenue" = "Fourth Avenue").
 * Word ordinals are mapped up to twentieth / vingtieme.
 *
 * Compound directionals written as one token (nw, northwest, so = sud-ouest) map to nw/ne/sw/se;
 * written as two words (nord-ouest, north west) they stay two tokens (n, w). "no" (nord-ouest) is
 * deliberately not mapped: it is far more often "No. 3 Road" (Richmond BC) than a directional.
 */

/** type: weak for ranking; word: a street type that is also an ordinary word (Park, Hill). */
type Kind = 'type' | 'word' | 'directional' | 'other';

/** canonical → [kind, ...variants]; the canonical is always also a variant of itself. */
const TABLE: ReadonlyArray<readonly [string, Kind, readonly string[]]> = [
  // Saint forms (st is shared with street: harmless ambiguity, same canonical).
  ['st', 'type', ['street', 'str', 'saint', 'streets']],
  ['ste', 'other', ['sainte']],
  // Street types (Canada Post English and French lists, plus common extras).
  ['av', 'type', ['avenue', 'ave', 'avn', 'aven', 'avenu', 'avnue']],
  ['boul', 'type', ['boulevard', 'blvd', 'bd', 'boulv', 'boulev', 'blv']],
  ['ch', 'type', ['chemin', 'chem']],
  ['rd', 'type', ['road']],
  ['rte', 'type', ['route']],
  ['dr', 'type', ['drive', 'drv', 'driv']],
  ['cres', 'type', ['crescent', 'cr', 'cresc', 'crsnt', 'crescnt']],
  ['crt', 'type', ['court', 'ct']],
  ['pl', 'type', ['place', 'plc']],
  ['ln', 'type', ['lane']],
  ['terr', 'type', ['terrace', 'tce', 'ter']],
  ['hwy', 'type', ['highway', 'hwy', 'hgwy', 'hiway', 'autoroute', 'aut']],
  ['fwy', 'type', ['freeway']],
  ['expy', 'type', ['expressway', 'expwy']],
  ['rue', 'type', []],
  ['ruelle', 'type', ['rle']],
  ['mtee', 'type', ['montee']],
  ['rg', 'type', ['rang', 'range', 'rge']],
  ['cote', 'type', []],
  ['carre', 'type', []],
  ['carref', 'type', ['carrefour']],
  ['imp', 'type', ['impasse']],
  ['prom', 'type', ['promenade']],
  ['pky', 'type', ['parkway', 'pkwy', 'pwy', 'prkwy']],
  ['trl', 'type', ['trail']],
  ['sq', 'type', ['square', 'sqr']],
  ['cir', 'type', ['circle', 'circ']],
  ['circt', 'type', ['circuit', 'crcut', 'crict']],
  ['way', 'type', ['wy']],
  ['gate', 'type', ['gt']],
  ['grv', 'word', ['grove']],
  ['hts', 'word', ['heights']],
  ['pt', 'word', ['point', 'pnt']],
  ['pointe', 'word', []],
  ['mt', 'word', ['mount', 'mont']],
  ['mtn', 'word', ['mountain']],
  ['ft', 'other', ['fort']],
  ['abbey', 'word', []],
  ['acres', 'word', []],
  ['campus', 'word', []],
  ['chase', 'word', []],
  ['allee', 'type', []],
  ['alley', 'type', ['aly']],
  ['bay', 'word', []],
  ['beach', 'word', []],
  ['bend', 'word', []],
  ['bypass', 'type', ['byps']],
  ['byway', 'type', []],
  ['cape', 'word', []],
  ['ctr', 'word', ['centre', 'center', 'cntr']],
  ['cercle', 'word', []],
  ['close', 'type', []],
  ['common', 'word', []],
  ['conc', 'type', ['concession']],
  ['crnrs', 'type', ['corners']],
  ['cour', 'type', []],
  ['cours', 'type', []],
  ['cove', 'word', []],
  ['crois', 'type', ['croissant']],
  ['cross', 'word', ['crossing']],
  ['cds', 'type', ['culdesac']],
  ['dale', 'word', []],
  ['dell', 'word', []],
  ['divers', 'type', ['diversion']],
  ['downs', 'word', []],
  ['ech', 'type', ['echangeur']],
  ['end', 'word', []],
  ['espl', 'type', ['esplanade']],
  ['estate', 'word', ['estates']],
  ['exten', 'type', ['extension']],
  ['farm', 'word', []],
  ['field', 'word', []],
  ['forest', 'word', []],
  ['front', 'word', []],
  ['gdns', 'word', ['gardens', 'garden']],
  ['glade', 'word', []],
  ['glen', 'word', []],
  ['green', 'word', []],
  ['grnds', 'word', ['grounds']],
  ['harbr', 'word', ['harbour', 'harbor']],
  ['heath', 'word', []],
  ['hghlds', 'word', ['highlands']],
  ['hill', 'word', []],
  ['hollow', 'word', []],
  ['ile', 'word', []],
  ['inlet', 'word', []],
  ['island', 'word', []],
  ['key', 'word', []],
  ['knoll', 'word', []],
  ['landng', 'word', ['landing']],
  ['lmts', 'type', ['limits']],
  ['line', 'word', []],
  ['link', 'word', []],
  ['lkout', 'word', ['lookout']],
  ['loop', 'word', []],
  ['mall', 'word', []],
  ['manor', 'word', []],
  ['maze', 'word', []],
  ['meadow', 'word', []],
  ['mews', 'type', []],
  ['moor', 'word', []],
  ['orch', 'word', ['orchard']],
  ['parade', 'word', []],
  ['parc', 'word', []],
  ['pk', 'word', ['park']],
  ['pass', 'word', ['passage']],
  ['path', 'word', []],
  ['ptway', 'type', ['pathway']],
  ['pines', 'word', []],
  ['plat', 'word', ['plateau']],
  ['plaza', 'word', []],
  ['port', 'word', []],
  ['pvt', 'type', ['private']],
  ['quai', 'word', []],
  ['quay', 'word', []],
  ['ramp', 'word', []],
  ['ridge', 'word', []],
  ['rise', 'word', []],
  ['rdpt', 'type', ['rondpoint']],
  ['row', 'type', []],
  ['run', 'word', []],
  ['sent', 'type', ['sentier']],
  ['subdiv', 'type', ['subdivision']],
  ['tsse', 'type', ['terrasse']],
  ['thick', 'word', ['thicket']],
  ['towers', 'word', []],
  ['tline', 'type', ['townline']],
  ['twp', 'type', ['township']],
  ['trnabt', 'type', ['turnabout']],
  ['vale', 'word', []],
  ['via', 'word', []],
  ['view', 'word', []],
  ['villge', 'word', ['village']],
  ['villas', 'word', []],
  ['vista', 'word', []],
  ['voie', 'type', []],
  ['walk', 'word', []],
  ['wharf', 'word', []],
  ['wood', 'word', []],
  ['wynd', 'type', []],
  // Directionals, both languages (o = ouest).
  ['n', 'directional', ['north', 'nord']],
  ['s', 'directional', ['south', 'sud']],
  ['e', 'directional', ['east', 'est']],
  ['w', 'directional', ['west', 'ouest', 'o']],
  ['ne', 'directional', ['northeast', 'nordest']],
  ['nw', 'directional', ['northwest', 'nordouest']],
  ['se', 'directional', ['southeast', 'sudest']],
  ['sw', 'directional', ['southwest', 'sudouest', 'so']],
];

const WORD_ORDINALS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['1', ['first', 'premier', 'premiere']],
  ['2', ['second', 'deuxieme', 'seconde']],
  ['3', ['third', 'troisieme']],
  ['4', ['fourth', 'quatrieme']],
  ['5', ['fifth', 'cinquieme']],
  ['6', ['sixth', 'sixieme']],
  ['7', ['seventh', 'septieme']],
  ['8', ['eighth', 'huitieme']],
  ['9', ['ninth', 'neuvieme']],
  ['10', ['tenth', 'dixieme']],
  ['11', ['eleventh', 'onzieme']],
  ['12', ['twelfth', 'douzieme']],
  ['13', ['thirteenth', 'treizieme']],
  ['14', ['fourteenth', 'quatorzieme']],
  ['15', ['fifteenth', 'quinzieme']],
  ['16', ['sixteenth', 'seizieme']],
  ['17', ['seventeenth', 'dixseptieme']],
  ['18', ['eighteenth', 'dixhuitieme']],
  ['19', ['nineteenth', 'dixneuvieme']],
  ['20', ['twentieth', 'vingtieme']],
];

const CANONICAL = new Map<string, string>();
const WEAK = new Set<string>();
const STREET_TYPES = new Set<string>();
/** [variant, canonical] pairs for prefix lookups, canonicals included. */
const VARIANTS: Array<readonly [string, string]> = [];

for (const [canonical, kind, variants] of TABLE) {
  if (kind === 'type' || kind === 'directional') WEAK.add(canonical);
  if (kind === 'type' || kind === 'word') STREET_TYPES.add(canonical);
  for (const v of [canonical, ...variants]) {
    if (CANONICAL.has(v) && CANONICAL.get(v) !== canonical) {
      throw new Error(`street-terms: ${v} maps to both ${CANONICAL.get(v)} and ${canonical}`);
    }
    if (!CANONICAL.has(v)) VARIANTS.push([v, canonical]);
    CANONICAL.set(v, canonical);
  }
}
for (const [n, words] of WORD_ORDINALS) {
  for (const w of words) {
    CANONICAL.set(w, n);
    VARIANTS.push([w, n]);
  }
}

/** 1st 2nd 3rd 4th 21st, 1er 1re 1ere 2e 2eme 2ieme 2ème (folded), 2d. */
const NUMERIC_ORDINAL = /^(\d+)(?:st|nd|rd|th|d|e|er|re|ere|eme|ieme|em|iem)$/;

const ordinalCache = new Map<string, string>();
const ORDINAL_SUFFIXES = ['st', 'nd', 'rd', 'th', 'd', 'e', 'er', 're', 'ere', 'eme', 'ieme', 'em', 'iem'];
const DIGITS_THEN_LETTERS = /^(\d+)([a-z]+)$/;

/** A number with an ordinal suffix being typed ("28t", "1s", "2n", "3i") → its number ("28"); null otherwise. */
export function partialOrdinalNumber(prefix: string): string | null {
  const m = DIGITS_THEN_LETTERS.exec(prefix);
  if (!m || !ORDINAL_SUFFIXES.some((s) => s.startsWith(m[2]!))) return null;
  return String(Number(m[1]));
}

/** Folded token → canonical token (see the module comment). */
export function canonicalToken(token: string): string {
  const hit = CANONICAL.get(token);
  if (hit !== undefined) return hit;
  const c = token.charCodeAt(0);
  if (c >= 48 && c <= 57 && token.length > 1) {
    const cached = ordinalCache.get(token);
    if (cached !== undefined) return cached;
    const m = NUMERIC_ORDINAL.exec(token);
    // Leading zeros dropped so "01st" and "1st" agree; plain numbers are left alone.
    const out = m ? String(Number(m[1])) : token;
    if (ordinalCache.size > 50_000) ordinalCache.clear();
    ordinalCache.set(token, out);
    return out;
  }
  return token;
}

export function canonicalTokens(tokens: string[]): string[] {
  const out = new Array<string>(tokens.length);
  for (let i = 0; i < tokens.length; i++) out[i] = canonicalToken(tokens[i]!);
  return out;
}

/** True when the token is an ordinal written with a suffix (4e, 1st, 2nd): not a civic number. */
export function isNumericOrdinal(token: string): boolean {
  return NUMERIC_ORDINAL.test(token);
}

const prefixCache = new Map<string, string[]>();

/**
 * Autocomplete: canonical tokens any of whose variants (or itself) starts with the folded
 * prefix ("boulev" → ["boul"], "ave" → ["av"], "nor" → ["n", "ne", "nw"]), or the number of a
 * partly typed ordinal ("28t" → ["28"]); [] when none.
 * Exact variant hits come first.
 */
export function prefixCanonicals(prefix: string): string[] {
  if (prefix === '') return [];
  const cached = prefixCache.get(prefix);
  if (cached !== undefined) return cached;
  const exact = CANONICAL.get(prefix);
  const out: string[] = exact !== undefined ? [exact] : [];
  const ordinal = partialOrdinalNumber(prefix);
  if (ordinal !== null) out.push(ordinal);
  for (const [v, c] of VARIANTS) {
    if (v.startsWith(prefix) && !out.includes(c)) out.push(c);
  }
  if (prefixCache.size > 10_000) prefixCache.clear();
  prefixCache.set(prefix, out);
  return out;
}

/** Canonical street types and directionals: weak tokens for ranking. */
export function isStreetTypeOrDirectional(canonical: string): boolean {
  return WEAK.has(canonical);
}

/** Canonical street type (English or French, including word-like types such as pk, hill). */
export function isStreetType(canonical: string): boolean {
  return STREET_TYPES.has(canonical);
}

const DIRECTIONALS = new Set(['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw']);
export function isDirectional(canonical: string): boolean {
  return DIRECTIONALS.has(canonical);
}
