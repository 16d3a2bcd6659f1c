/**
 * Language-keyed labels from OSM name tags:
 * - `name:<lang>` (2–3 lower-case letters, not `alt`/`old`/...) → `<lang>`;
 * - `alt_name`, `official_name`, `short_name` (`;` lists) → `en-alt1..3`, and their `:fr`
 *   forms → `fr-alt1..3` (alternates equal to a label already held are dropped);
 * - `iata` (`;` list) → `en-iata`, `en-iata2`.
 * `old_name` is not taken: a former name is not a current label.
 */
import { cleanDisplay } from '../../../engines/geocoding/text/fold.ts';

const LANG_NAME = /^name:([a-z]{2,3})$/;
/** `name:alt` and the like are mistagged alternates, not languages. */
const NOT_LANGUAGES = new Set(['alt', 'old', 'not', 'new', 'ref']);
const MAX_ALTS = 3;

type Tags = Readonly<Record<string, string>>;

function list(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value.split(';').map(cleanDisplay).filter((v) => v !== '');
}

const EN_ALT_KEYS = ['alt_name', 'official_name', 'short_name'];
const FR_ALT_KEYS = ['alt_name:fr', 'official_name:fr', 'short_name:fr'];

export function namesFromTags(tags: Tags, name: string | null): Record<string, string> {
  const names: Record<string, string> = {};
  for (const key in tags) {
    if (!key.startsWith('name:')) continue;
    const m = LANG_NAME.exec(key);
    if (!m || NOT_LANGUAGES.has(m[1]!)) continue;
    const value = cleanDisplay(tags[key]!);
    if (value !== '') names[m[1]!] = value;
  }
  const hasAlts = EN_ALT_KEYS.some((k) => tags[k] !== undefined) || FR_ALT_KEYS.some((k) => tags[k] !== undefined);
  if (hasAlts) {
    const held = new Set<string>(Object.values(names).map((v) => v.toLowerCase()));
    if (name) held.add(name.toLowerCase());
    addAlts(names, held, tags, 'en', EN_ALT_KEYS);
    addAlts(names, held, tags, 'fr', FR_ALT_KEYS);
  }
  if (tags.iata !== undefined) {
    const iata = list(tags.iata).map((c) => c.toUpperCase()).filter((c) => /^[A-Z0-9]{3}$/.test(c));
    if (iata[0]) names['en-iata'] = iata[0];
    if (iata[1]) names['en-iata2'] = iata[1];
  }
  return names;
}

function addAlts(names: Record<string, string>, held: Set<string>, tags: Tags, prefix: 'en' | 'fr', keys: string[]): void {
  let n = 0;
  for (const key of keys) {
    for (const alt of list(tags[key])) {
      if (n >= MAX_ALTS) return;
      const k = alt.toLowerCase();
      if (held.has(k)) continue;
      held.add(k);
      names[`${prefix}-alt${++n}`] = alt;
    }
  }
}
