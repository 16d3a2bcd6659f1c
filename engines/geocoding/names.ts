/** Alternates and airport codes are matched by search but never shown as name. */
const NOT_A_LANGUAGE = /-(alt|iata)\d?$/;

export function isPickableKey(key: string): boolean {
  return !NOT_A_LANGUAGE.test(key);
}

/**
 * Display name (volume 2 "Geocoding result"): names[lang]; then names.fr when lang is fr; then
 * the row default name; then names.en; then any other language label. '' when none.
 */
export function pickName(names: Record<string, string> | undefined, lang: string, defaultName: string): string {
  if (names) {
    if (isPickableKey(lang) && names[lang]) return names[lang];
    if (lang.toLowerCase().startsWith('fr') && names.fr) return names.fr;
  }
  if (defaultName) return defaultName;
  if (names) {
    if (names.en) return names.en;
    for (const [key, value] of Object.entries(names)) if (value && isPickableKey(key)) return value;
  }
  return '';
}
