/**
 * The label language of a style (volume 3 "Style parameters", lang): the primary subtag of a
 * BCP 47 tag. An explicit lang decides on its own (unsupported gives en); only when it is absent
 * does Accept-Language choose, by quality, among the supported languages.
 */
import { language_script_pairs } from '@protomaps/basemaps';

/** What protomaps can label with: its language/script table, primary subtags only. */
export const SUPPORTED_LANGUAGES: ReadonlySet<string> = new Set(
  language_script_pairs.map((pair) => pair.lang).filter((lang) => /^[a-z]{2,3}$/.test(lang)),
);

export const DEFAULT_LANGUAGE = 'en';

function primarySubtag(tag: string): string {
  return tag.trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
}

function fromAcceptLanguage(header: string): string | undefined {
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { lang: primarySubtag(tag), q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ lang, q }) => q > 0 && SUPPORTED_LANGUAGES.has(lang))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.lang;
}

export function resolveLanguage(lang: string | undefined, acceptLanguage: string | undefined): string {
  if (lang !== undefined && lang.trim() !== '') {
    const primary = primarySubtag(lang);
    return SUPPORTED_LANGUAGES.has(primary) ? primary : DEFAULT_LANGUAGE;
  }
  return (acceptLanguage && fromAcceptLanguage(acceptLanguage)) || DEFAULT_LANGUAGE;
}
