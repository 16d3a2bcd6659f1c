/**
 * Name attributes of a basemap feature, as @protomaps/basemaps' label expressions read them:
 * `name` (the local name), `name:<lang>` for the style's languages (en, fr) and for the
 * Indigenous languages of Canada the data carries (they travel on the feature; a style shows
 * them beside the local name, never as a `lang`), and `script` when the local name is not in
 * Latin script (the style then prints `name:<lang>` above it on two lines).
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';

/** ISO 639 codes of the style languages and of Indigenous languages spoken in Canada that OSM names use. */
export const NAME_LANGUAGES: readonly string[] = [
  'en', 'fr',
  // Inuit and Eskimo-Aleut
  'iu', 'ike', 'ikt',
  // Algonquian
  'cr', 'crk', 'crl', 'crm', 'csw', 'crj', 'oj', 'ojb', 'ojs', 'ojw', 'otw', 'alq', 'moe', 'nsk', 'atj', 'mic', 'pqm', 'bla',
  // Iroquoian and Siouan
  'moh', 'one', 'ono', 'cay', 'see', 'tus', 'wya', 'dak', 'sto',
  // Dene (Athabaskan), Haida, Tlingit, Salishan, Wakashan, Tsimshianic, Ktunaxa
  'chp', 'den', 'scs', 'xsl', 'dgr', 'gwi', 'caf', 'crx', 'tcb', 'kkz', 'tce', 'bcr', 'clc', 'hai', 'tli',
  'hur', 'squ', 'shs', 'lil', 'oka', 'thp', 'str', 'coo', 'sec', 'kwk', 'hei', 'nuk', 'has', 'tsi', 'git', 'ncg', 'kut',
];

const SCRIPTS: readonly [string, RegExp][] = [
  ['Canadian_Aboriginal', /[\u1400-\u167F\u18B0-\u18FF]/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Gurmukhi', /\p{Script=Gurmukhi}/u],
];

/** The script of a name that is not written in Latin letters, else null. */
export function scriptOf(name: string): string | null {
  for (const [script, pattern] of SCRIPTS) if (pattern.test(name)) return script;
  return null;
}

export type NameProperties = Record<string, string>;

/** The name attributes of an OSM object: empty when it has no `name`. */
export function osmNames(tags: OsmTags): NameProperties {
  const name = tags.name?.trim();
  if (!name) return {};
  const names: NameProperties = { name };
  for (const lang of NAME_LANGUAGES) {
    const value = tags[`name:${lang}`]?.trim();
    if (value) names[`name:${lang}`] = value;
  }
  const script = scriptOf(name);
  if (script) names.script = script;
  return names;
}

/** Names of a feature from a coarse source: one local name and its English and French forms where known. */
export function plainNames(name: string, translations: Partial<Record<'en' | 'fr', string>> = {}): NameProperties {
  const names: NameProperties = { name };
  for (const [lang, value] of Object.entries(translations)) if (value) names[`name:${lang}`] = value;
  const script = scriptOf(name);
  if (script) names.script = script;
  return names;
}
