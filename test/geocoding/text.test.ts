import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { civicKey, cleanDisplay, fold, tokenize } from '../../engines/geocoding/text/fold.ts';
import {
  POSTCODE_IN_TEXT, canonicalPostcodeMatch, isPostcodeFsa, parsePostcode,
} from '../../engines/geocoding/text/postcode.ts';
import {
  PROVINCES, provinceByAdmin1, provinceByCode, provinceBySgc, regionTokenSpans, resolveRegion,
} from '../../engines/geocoding/text/provinces.ts';
import { parseAutocomplete } from '../../engines/geocoding/text/autocomplete-parse.ts';
import { parseQuery, parseStreetLine } from '../../engines/geocoding/text/query-parse.ts';
import {
  canonicalToken, canonicalTokens, isDirectional, isStreetType, isStreetTypeOrDirectional, prefixCanonicals,
} from '../../engines/geocoding/text/street-terms.ts';

const DATA = '../shared/data/geocoding/mneyrane-CA-address-parser';

describe('fold / tokenize / cleanDisplay', () => {
  it.each([
    ['Boulevard René-Lévesque Ouest', 'boulevard rene levesque ouest'],
    ["Rue d'Youville", 'rue dyouville'],
    ['Rue d’Youville', 'rue dyouville'],
    ['Rue dʼYouville', 'rue dyouville'],
    ['rue d`Youville', 'rue dyouville'],
    ["St. John's", 'st johns'],
    ['Œuvre Cœur', 'oeuvre coeur'],
    ['Ægir', 'aegir'],
    ['Straße', 'strasse'],
    ['Montée Saint-François', 'montee saint francois'],
    ['ÎLE-DU-PRINCE-ÉDOUARD', 'ile du prince edouard'],
    ['ＫＩＮＧ　ＳＴ', 'king st'], // full-width (NFKC)
    ['  Main   St.,  W  ', 'main st w'],
    ['43-A', '43 a'],
    ['C.-B.', 'c b'],
    ['Ça va !!!', 'ca va'],
    ['', ''],
    ['  -- ', ''],
  ])('fold(%j) = %j', (input, expected) => {
    expect(fold(input)).toBe(expected);
  });

  it('ASCII fast path and Unicode path agree', () => {
    for (const s of ["O'Brien Rd N", 'Main St. W', '4e Avenue', '#401-43 Hanna']) {
      // The trailing "é" forces the Unicode path; it folds to a separate "e" token.
      expect(fold(`${s} é`)).toBe(`${fold(s)} e`);
    }
  });

  it.each([
    ['43a Hanna Ave', ['43a', 'hanna', 'ave']],
    ['4e Avenue', ['4e', 'avenue']],
    ['1re Rue', ['1re', 'rue']],
    ['Saint-Jean-sur-Richelieu', ['saint', 'jean', 'sur', 'richelieu']],
    ['Nord-Est', ['nord', 'est']],
    ['', []],
    ['...', []],
  ])('tokenize(%j)', (input, expected) => {
    expect(tokenize(input)).toEqual(expected);
  });

  it.each([
    ['43 A', '43a'], ['43-A', '43a'], ['43a', '43a'], ['#101', '101'], ['43 1/2', '431/2'], ['43½', '431/2'],
    ['4312', '4312'], ['Ａ12', 'a12'],
  ])('civicKey(%j) = %j', (input, expected) => {
    expect(civicKey(input)).toBe(expected);
  });

  it('cleanDisplay keeps case and accents, NFKC and whitespace only', () => {
    expect(cleanDisplay('  Boulevard   René-Lévesque\tOuest ')).toBe('Boulevard René-Lévesque Ouest');
    expect(cleanDisplay('ＫＩＮＧ')).toBe('KING');
    // Decomposed é (e + U+0301) composes under NFKC.
    expect(cleanDisplay('Rene\u0301')).toBe('René');
  });
});

describe('street terms', () => {
  // Every spelling in a row must reach the same canonical, the one named first.
  const groups: Array<[string, string[]]> = [
    ['st', ['street', 'st', 'str', 'St.', 'saint', 'Saint']],
    ['ste', ['sainte', 'Ste', 'ste.']],
    ['av', ['avenue', 'ave', 'av', 'Av.']],
    ['boul', ['boulevard', 'boul', 'blvd', 'bd', 'Boul.']],
    ['ch', ['chemin', 'ch']],
    ['rd', ['road', 'rd']],
    ['rte', ['route', 'rte']],
    ['dr', ['drive', 'dr']],
    ['cres', ['crescent', 'cres', 'cr']],
    ['crt', ['court', 'crt', 'ct']],
    ['pl', ['place', 'pl']],
    ['ln', ['lane', 'ln']],
    ['terr', ['terrace', 'terr', 'tce']],
    ['hwy', ['highway', 'hwy', 'autoroute', 'aut']],
    ['rue', ['rue']],
    ['mtee', ['montée', 'montee', 'mtee']],
    ['rg', ['rang', 'rg', 'range']],
    ['cote', ['côte', 'cote']],
    ['carre', ['carré', 'carre']],
    ['imp', ['impasse', 'imp']],
    ['prom', ['promenade', 'prom']],
    ['pky', ['parkway', 'pky', 'pkwy']],
    ['trl', ['trail', 'trl']],
    ['sq', ['square', 'sq']],
    ['cir', ['circle', 'cir']],
    ['way', ['way']],
    ['gate', ['gate']],
    ['grv', ['grove', 'grv']],
    ['hts', ['heights', 'hts']],
    ['pt', ['point', 'pt']],
    ['mt', ['mount', 'mt', 'mont']],
    ['n', ['north', 'nord', 'n', 'N.']],
    ['s', ['south', 'sud', 's']],
    ['e', ['east', 'est', 'e']],
    ['w', ['west', 'ouest', 'o', 'w', 'O.']],
    ['ne', ['ne', 'northeast']],
    ['nw', ['nw', 'northwest']],
    ['se', ['se', 'southeast']],
    ['sw', ['sw', 'southwest', 'so']],
    ['1', ['1st', '1er', '1re', '1ere', '1ère', 'first', 'premier', 'première']],
    ['2', ['2nd', '2e', '2eme', '2ème', '2ieme', 'second', 'deuxième']],
    ['3', ['3rd', '3e', 'third', 'troisième']],
    ['4', ['4th', '4e', 'fourth', 'quatrième']],
    ['21', ['21st', '21e']],
    ['112', ['112th', '112e']],
  ];
  it.each(groups)('%s ← %j', (canonical, spellings) => {
    for (const s of spellings) {
      const toks = tokenize(s);
      expect(toks).toHaveLength(1);
      expect(canonicalToken(toks[0]!), s).toBe(canonical);
    }
  });

  it.each(['main', 'hanna', '43a', '100', '4x', 'mtl', 'levesque', 'no', 'x'])('unknown token %j passes through', (t) => {
    expect(canonicalToken(t)).toBe(t);
  });

  it('English and French street names meet on the same tokens', () => {
    const c = (s: string) => canonicalTokens(tokenize(s)).join(' ');
    expect(c('Boulevard René-Lévesque Ouest')).toBe(c('boul. rene-levesque o'));
    expect(c('Saint Catherine Street West')).toBe(c('St. Catherine St. W'));
    expect(c('Rue Sainte-Catherine Est')).toBe(c('rue Ste-Catherine E'));
    expect(c('4e Avenue Nord')).toBe(c('4th Ave N'));
    expect(c('Fourth Avenue')).toBe(c('4 Av'));
    expect(c('Chemin de la Côte-des-Neiges')).toBe(c('ch de la cote des neiges'));
    expect(c('Crowchild Trail Northwest')).toBe(c('Crowchild Trl NW'));
  });

  it('every Canada Post street type in the reference list is known', () => {
    const lines = readFileSync(`${DATA}/street_types.txt`, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(150);
    const missing = lines.filter((l) => !isStreetType(canonicalToken(tokenize(l).join(''))));
    expect(missing).toEqual([]);
  });

  it.each([
    ['boulev', ['boul']],
    ['boul', ['boul']],
    ['ave', ['av']],
    ['chem', ['ch']],
    ['mont', ['mt', 'mtee']],
    ['prem', ['1']],
    ['28t', ['28']],
    ['1s', ['1']],
    ['02n', ['2']],
    ['3r', ['3']],
    ['4ie', ['4']],
    ['5e', ['5']],
    ['28x', []],
    ['12', []],
    ['xyzzy', []],
    ['', []],
  ])('prefixCanonicals(%j)', (prefix, expected) => {
    expect([...prefixCanonicals(prefix)].sort()).toEqual([...expected].sort());
  });

  it('prefixCanonicals: directionals and exact hits first', () => {
    expect(prefixCanonicals('nor')).toContain('n');
    expect(prefixCanonicals('nor')).toContain('nw');
    expect(prefixCanonicals('ouest')).toEqual(['w']);
    expect(prefixCanonicals('st')[0]).toBe('st');
    expect(prefixCanonicals('st')).toContain('ste');
  });

  it('weak tokens: street types and directionals only', () => {
    for (const t of ['st', 'av', 'boul', 'ch', 'rue', 'rd', 'n', 'w', 'sw', 'hwy', 'rg', 'mtee']) {
      expect(isStreetTypeOrDirectional(t), t).toBe(true);
    }
    for (const t of ['main', 'ste', '1', 'pk', 'hill', 'mt', 'island']) {
      expect(isStreetTypeOrDirectional(t), t).toBe(false);
    }
    expect(isDirectional('w')).toBe(true);
    expect(isDirectional('av')).toBe(false);
    expect(isStreetType('pk')).toBe(true);
    expect(isStreetType('n')).toBe(false);
  });
});

describe('postal codes', () => {
  it.each([
    ['K1A 0B1', 'K1A 0B1'],
    ['k1a0b1', 'K1A 0B1'],
    ['K1A-0B1', 'K1A 0B1'],
    [' k1a 0b1 ', 'K1A 0B1'],
    ['k1a   0b1', 'K1A 0B1'],
    ['h3b1b1', 'H3B 1B1'],
    ['X0A 0H0', 'X0A 0H0'],
    ['T2W 0Z9', 'T2W 0Z9'], // W and Z allowed after the first letter
    ['ｋ１ａ０ｂ１', 'K1A 0B1'], // full-width, through NFKC
  ])('parsePostcode(%j) = %j', (input, expected) => {
    expect(parsePostcode(input)).toBe(expected);
  });

  it.each([
    'D1A 0B1', 'F1A 0B1', 'I1A 0B1', 'O1A 0B1', 'Q1A 0B1', 'U1A 0B1', 'W1A 0B1', 'Z1A 0B1',
    'K1D 0B1', 'K1A 0O1', 'K1I 0B1', 'K1A 0Q1', 'K1U 0B1',
    'K1A 0B', 'K1A 0B11', 'KKA 0B1', 'K1A0B1X', '', '12345', 'K1A', 'K1A -- 0B1',
  ])('parsePostcode(%j) = null', (input) => {
    expect(parsePostcode(input)).toBeNull();
  });

  it('POSTCODE_IN_TEXT finds codes in free text, with or without the space', () => {
    const find = (s: string) => [...s.matchAll(POSTCODE_IN_TEXT)].map((m) => canonicalPostcodeMatch(m[0]));
    expect(find('1200 boul René-Lévesque O, Montréal QC H3B 1B1')).toEqual(['H3B 1B1']);
    expect(find('ottawa k1a0b1 canada')).toEqual(['K1A 0B1']);
    expect(find('ottawa K1A-0B1')).toEqual(['K1A 0B1']);
    expect(find('xK1A0B1 and K1A0B1y')).toEqual([]);
    expect(find('D1A 0B1')).toEqual([]);
    expect(find('a K1A 0B1 b V6B 4Y8')).toEqual(['K1A 0B1', 'V6B 4Y8']);
  });

  it('isPostcodeFsa', () => {
    expect(isPostcodeFsa('K1A')).toBe(true);
    expect(isPostcodeFsa(' h3b ')).toBe(true);
    expect(isPostcodeFsa('D1A')).toBe(false);
    expect(isPostcodeFsa('K1A 0B1')).toBe(false);
    expect(isPostcodeFsa('K1')).toBe(false);
  });
});

describe('provinces', () => {
  const spellings: Array<[string, string[]]> = [
    ['AB', ['Alberta', 'ALTA.', 'Alta', 'AB', 'ab', 'CA-AB', 'Alb.']],
    ['BC', ['British Columbia', 'Colombie-Britannique', 'colombie britannique', 'B.C.', 'BC', 'C.-B.', 'cb', 'C B', 'ca-bc']],
    ['MB', ['Manitoba', 'Man.', 'MB']],
    ['NB', ['New Brunswick', 'Nouveau-Brunswick', 'N.B.', 'N.-B.', 'NB']],
    ['NL', ['Newfoundland and Labrador', 'Newfoundland & Labrador', 'Newfoundland', 'Terre-Neuve-et-Labrador', 'terre neuve', 'Nfld.', 'T.-N.-L.', 'NL', 'NF']],
    ['NS', ['Nova Scotia', 'Nouvelle-Écosse', 'nouvelle ecosse', 'N.S.', 'N.-É.', 'NS']],
    ['ON', ['Ontario', 'ONTARIO', 'Ont.', 'ON', 'on', 'CA-ON']],
    ['PE', ['Prince Edward Island', 'Île-du-Prince-Édouard', 'P.E.I.', 'PEI', 'Î.-P.-É.', 'PE']],
    ['QC', ['Quebec', 'Québec', 'QUÉBEC', 'Que.', 'Qué.', 'PQ', 'P.Q.', 'QC', 'qc']],
    ['SK', ['Saskatchewan', 'Sask.', 'SK']],
    ['YT', ['Yukon', 'Yukon Territory', 'Territoire du Yukon', 'Y.T.', 'Yn', 'YT', 'YK']],
    ['NT', ['Northwest Territories', 'Territoires du Nord-Ouest', 'N.W.T.', 'NWT', 'T.N.-O.', 'TNO', 'NT']],
    ['NU', ['Nunavut', 'Nvt.', 'NU']],
  ];
  it.each(spellings)('resolveRegion → %s', (code, list) => {
    for (const s of list) expect(resolveRegion(s), s).toBe(code);
  });

  it.each(['', 'Canada', 'CA', 'NY', 'USA', 'Toronto', 'Ontar', 'B', 'QQ', 'zz', 'New York'])('resolveRegion(%j) = null', (s) => {
    expect(resolveRegion(s)).toBeNull();
  });

  it('table: 13 entries with GeoNames and SGC codes', () => {
    expect(PROVINCES).toHaveLength(13);
    const codes = PROVINCES.map((p) => `${p.code}:${p.geonamesAdmin1}:${p.sgc}`);
    expect(codes).toEqual([
      'AB:01:48', 'BC:02:59', 'MB:03:46', 'NB:04:13', 'NL:05:10', 'NS:07:12', 'ON:08:35',
      'PE:09:11', 'QC:10:24', 'SK:11:47', 'YT:12:60', 'NT:13:61', 'NU:14:62',
    ]);
    for (const p of PROVINCES) {
      expect(resolveRegion(p.names.en)).toBe(p.code);
      expect(resolveRegion(p.names.fr)).toBe(p.code);
      for (const v of p.variants) expect(resolveRegion(v), v).toBe(p.code);
    }
    expect(provinceByAdmin1('02')?.code).toBe('BC');
    expect(provinceByAdmin1('CA.10')?.code).toBe('QC');
    expect(provinceByAdmin1('8')?.code).toBe('ON');
    expect(provinceByAdmin1('06')).toBeUndefined();
    expect(provinceByCode('qc')?.names.fr).toBe('Québec');
    expect(provinceByCode('XX')).toBeUndefined();
    expect(provinceBySgc('62')?.code).toBe('NU');
  });

  const spans = (s: string) => regionTokenSpans(tokenize(s));
  it.each([
    ['toronto on', [{ code: 'ON', start: 1, end: 2 }]],
    ['calgary ab canada', [{ code: 'AB', start: 1, end: 2 }]],
    ['vancouver british columbia canada', [{ code: 'BC', start: 1, end: 3 }]],
    ['whitehorse yukon territory', [{ code: 'YT', start: 1, end: 3 }]],
    ['yellowknife t.n.-o.', [{ code: 'NT', start: 1, end: 4 }]],
    ['st johns terre-neuve-et-labrador', [{ code: 'NL', start: 2, end: 6 }]],
    ['montreal qc ca', [{ code: 'QC', start: 1, end: 2 }]],
    ['quebec', [{ code: 'QC', start: 0, end: 1 }]],
    ['edmonton alberta ab', [{ code: 'AB', start: 1, end: 2 }, { code: 'AB', start: 2, end: 3 }]],
    ['niagara on the lake', []],
    ['manitoba ave', []],
    ['rue ontario est', []],
    ['quebec city', []],
    ['123 centre st ne', []], // Calgary quadrant, not N.-É.
    ['canada', []],
    ['', []],
  ])('regionTokenSpans(%j)', (s, expected) => {
    expect(spans(s)).toEqual(expected);
  });
});

describe('parseQuery', () => {
  it.each([
    ['401-43 Hanna Ave', { housenumber: '43', unit: '401', tokens: ['hanna', 'av'] }],
    ['43 Hanna Ave Apt 4', { housenumber: '43', unit: '4', tokens: ['hanna', 'av'] }],
    ['43 Hanna Ave, Apt. 4B', { housenumber: '43', unit: '4b', tokens: ['hanna', 'av'] }],
    ['#401 43 Hanna Ave', { housenumber: '43', unit: '401', tokens: ['hanna', 'av'] }],
    ['# 401 43 Hanna Ave', { housenumber: '43', unit: '401', tokens: ['hanna', 'av'] }],
    ['43 Hanna Ave #401', { housenumber: '43', unit: '401', tokens: ['hanna', 'av'] }],
    ['Suite 200, 100 Queen St W', { housenumber: '100', unit: '200', tokens: ['queen', 'st', 'w'] }],
    ['Unit 4, 43 Hanna Avenue', { housenumber: '43', unit: '4', tokens: ['hanna', 'av'] }],
    ['43 rue Hanna, app 4', { housenumber: '43', unit: '4', tokens: ['rue', 'hanna'] }],
    ['43 rue Hanna appartement 12', { housenumber: '43', unit: '12', tokens: ['rue', 'hanna'] }],
    ['100 rue King bureau 200', { housenumber: '100', unit: '200', tokens: ['rue', 'king'] }],
    ['12 rue Principale local 3', { housenumber: '12', unit: '3', tokens: ['rue', 'principale'] }],
    ['100 Main St Ste 200', { housenumber: '100', unit: '200', tokens: ['main', 'st'] }],
    ['100 Main St apt4', { housenumber: '100', unit: '4', tokens: ['main', 'st'] }],
    ['579 Washington Ave Bldg 2', { housenumber: '579', unit: '2', tokens: ['washington', 'av'] }],
    ['43, rue Hanna', { housenumber: '43', tokens: ['rue', 'hanna'] }],
    ['43a Hanna Ave', { housenumber: '43a', tokens: ['hanna', 'av'] }],
    ['43-A Hanna Ave', { housenumber: '43a', tokens: ['hanna', 'av'] }],
    ['43 1/2 Main St', { housenumber: '43 1/2', tokens: ['main', 'st'] }],
    ['43½ Main St', { housenumber: '43 1/2', tokens: ['main', 'st'] }],
    ['4e Avenue', { tokens: ['4', 'av'] }],
    ['12 4e Avenue', { housenumber: '12', tokens: ['4', 'av'] }],
    ['2e Rang', { tokens: ['2', 'rg'] }],
    ['43', { housenumber: '43', tokens: [] }],
    ['Hwy #7', { tokens: ['hwy', '7'] }],
    ['123 Hwy #7', { housenumber: '123', tokens: ['hwy', '7'] }],
    ['123 County Rd #5', { housenumber: '123', tokens: ['county', 'rd', '5'] }],
    ['14231 Burrows Road #203', { housenumber: '14231', unit: '203', tokens: ['burrows', 'rd'] }],
    ['123 Kings Hwy #2', { housenumber: '123', tokens: ['kings', 'hwy', '2'] }],
    ['55 Smith Line #12', { housenumber: '55', unit: '12', tokens: ['smith', 'line'] }],
    ['Sainte-Foy', { tokens: ['ste', 'foy'] }],
    ['52345 RR 232', { housenumber: '52345', tokens: ['rg', 'rd', '232'] }],
    ['No. 3 Road Richmond', { tokens: ['no', '3', 'rd', 'richmond'] }],
    ['Stanley Park', { tokens: ['stanley', 'pk'] }],
  ])('%j', (q, expected) => {
    const p = parseQuery(q);
    expect(p.housenumber).toBe((expected as { housenumber?: string }).housenumber);
    expect(p.unit).toBe((expected as { unit?: string }).unit);
    expect(p.tokens).toEqual(expected.tokens);
    expect(p.rawTokens).toHaveLength(p.tokens.length);
    expect(p.delivery).toBe(false);
    expect(p.postcode).toBeUndefined();
  });

  it('French civic address with postal code and province', () => {
    const p = parseQuery('1200, boul. René-Lévesque O, Montréal QC H3B 1B1');
    expect(p).toEqual({
      housenumber: '1200',
      postcode: 'H3B 1B1',
      tokens: ['boul', 'rene', 'levesque', 'w', 'montreal', 'qc'],
      rawTokens: ['boul', 'rene', 'levesque', 'o', 'montreal', 'qc'],
      regions: [{ code: 'QC', start: 5, end: 6 }],
      delivery: false,
    });
  });

  it.each([
    ['K1A 0B1', 'K1A 0B1'],
    ['k1a0b1', 'K1A 0B1'],
    [' k1a-0b1 ', 'K1A 0B1'],
  ])('postal code alone %j', (q, pc) => {
    const p = parseQuery(q);
    expect(p.postcode).toBe(pc);
    expect(p.tokens).toEqual([]);
    expect(p.housenumber).toBeUndefined();
  });

  it('postal code glued inside the text, last one wins, others stay tokens', () => {
    const p = parseQuery('24 Sussex Dr Ottawa ON K1M1M4');
    expect(p.postcode).toBe('K1M 1M4');
    expect(p.housenumber).toBe('24');
    expect(p.tokens).toEqual(['sussex', 'dr', 'ottawa', 'on']);
    expect(p.regions).toEqual([{ code: 'ON', start: 3, end: 4 }]);
  });

  it('country words after a province are dropped, elsewhere kept', () => {
    const a = parseQuery('100 Queen St W, Toronto, ON, Canada');
    expect(a.tokens).toEqual(['queen', 'st', 'w', 'toronto', 'on']);
    expect(a.regions).toEqual([{ code: 'ON', start: 4, end: 5 }]);
    expect(parseQuery('Bank of Canada').tokens).toEqual(['bank', 'of', 'canada']);
    expect(parseQuery('Canada Place').tokens).toEqual(['canada', 'pl']);
  });

  it.each([
    'PO Box 123', 'P.O. Box 123', 'p o box 5', 'Post Office Box 9', 'Box 44', 'CP 123', 'C.P. 123', 'Case postale 77',
    'RR 2', 'R.R. 2', 'RR#2', 'rr2', 'Rural Route 3', 'General Delivery', 'GD', 'Poste restante',
    'PO Box 12 Stn Main', 'CP 5 Succ Centre-Ville', 'Site 5 Comp 12 RR 1', 'SS 1',
  ])('delivery only: %j', (q) => {
    const p = parseQuery(q);
    expect(p.delivery).toBe(true);
    expect(p.tokens).toEqual([]);
    expect(p.rawTokens).toEqual([]);
  });

  it.each([
    ['General Delivery, Gimli MB', ['gimli', 'mb'], [{ code: 'MB', start: 1, end: 2 }]],
    ['PO Box 123, Yellowknife NT X1A 2N1', ['yellowknife', 'nt'], [{ code: 'NT', start: 1, end: 2 }]],
    ['CP 123 Succ Centre-Ville, Montréal (Québec)', ['montreal', 'quebec'], [{ code: 'QC', start: 1, end: 2 }]],
    ['Site 5 Comp 12 RR 1, Okotoks AB', ['okotoks', 'ab'], [{ code: 'AB', start: 1, end: 2 }]],
    ['RR 2 Station Main Gimli', ['gimli'], []],
  ])('delivery with a community: %j', (q, tokens, regions) => {
    const p = parseQuery(q);
    expect(p.delivery).toBe(true);
    expect(p.tokens).toEqual(tokens);
    expect(p.regions).toEqual(regions);
  });

  it.each(['Box Hill', 'CP Rail', 'Union Station', 'Site C Dam', 'Station Square'])('not delivery: %j', (q) => {
    const p = parseQuery(q);
    expect(p.delivery).toBe(false);
    expect(p.tokens.length).toBeGreaterThan(1);
  });

  it('empty and punctuation-only queries', () => {
    for (const q of ['', '   ', ',,', '#']) {
      const p = parseQuery(q);
      expect(p.tokens).toEqual([]);
      expect(p.housenumber).toBeUndefined();
      expect(p.delivery).toBe(false);
    }
  });

  it('every real Canadian street line keeps its civic number (reference sequences)', () => {
    const lines = gunzipSync(readFileSync(`${DATA}/test_sequences_real.csv.gz`)).toString('utf8')
      .split('\n').filter(Boolean).map((l) => l.split('|')[0]!);
    expect(lines.length).toBeGreaterThan(10_000);
    let units = 0;
    for (const line of lines) {
      const p = parseQuery(line);
      expect(p.housenumber, line).toBe(line.split(' ')[0]!.toLowerCase());
      expect(p.delivery, line).toBe(false);
      expect(p.tokens.length, line).toBeGreaterThan(0);
      const m = / UNIT (\w+)$/.exec(line);
      if (m) {
        units++;
        expect(p.unit, line).toBe(m[1]!.toLowerCase());
      }
    }
    expect(units).toBeGreaterThan(100);
  });
});

describe('parseStreetLine', () => {
  it.each([
    ['43', { housenumber: '43', civicOnly: true, tokens: [] }],
    ['401-43', { housenumber: '43', unit: '401', civicOnly: true, tokens: [] }],
    ['43 Apt 4', { housenumber: '43', unit: '4', civicOnly: true, tokens: [] }],
    ['43 Hanna Ave', { housenumber: '43', civicOnly: false, tokens: ['hanna', 'av'] }],
    ['43, boul. Saint-Laurent', { housenumber: '43', civicOnly: false, tokens: ['boul', 'st', 'laurent'] }],
    ['Hanna Ave', { civicOnly: false, tokens: ['hanna', 'av'] }],
    ['', { civicOnly: false, tokens: [] }],
  ])('%j', (line, expected) => {
    const p = parseStreetLine(line);
    expect(p.housenumber).toBe((expected as { housenumber?: string }).housenumber);
    expect(p.unit).toBe((expected as { unit?: string }).unit);
    expect(p.civicOnly).toBe(expected.civicOnly);
    expect(p.tokens).toEqual(expected.tokens);
  });

  it('a postal code in the street line is not extracted', () => {
    expect(parseStreetLine('43 Hanna Ave M6K 1X1').tokens).toEqual(['hanna', 'av', 'm6k', '1x1']);
  });
});

describe('parseAutocomplete', () => {
  it.each([
    ['43 han', { complete: [], prefix: 'han', housenumber: '43' }],
    ['401-43 hann', { complete: [], prefix: 'hann', housenumber: '43', unit: '401' }],
    ['boul rene-lev', { complete: ['boul', 'rene'], prefix: 'lev' }],
    ['Boulevard René-Lév', { complete: ['boul', 'rene'], prefix: 'lev' }],
    ['Main Street ', { complete: ['main', 'st'], prefix: null }],
    ['Main St.', { complete: ['main', 'st'], prefix: null }],
    ['st-jean', { complete: ['st'], prefix: 'jean' }],
    ['Montr', { complete: [], prefix: 'montr' }],
    ['Montréal', { complete: [], prefix: 'montreal' }],
    ['rue d\'you', { complete: ['rue'], prefix: 'dyou' }],
    ['43', { complete: [], prefix: '43' }],
    ['4e av', { complete: ['4'], prefix: 'av' }],
    ['4e a', { complete: ['4'], prefix: 'a' }],
    ['4e Avenue Ouest', { complete: ['4', 'av'], prefix: 'ouest' }],
    ['', { complete: [], prefix: null }],
    ['   ', { complete: [], prefix: null }],
    ['--,.', { complete: [], prefix: null }],
  ])('%j', (q, expected) => {
    expect(parseAutocomplete(q)).toEqual(expected);
  });
});
