import { detectGrammar, type Grammar } from './detect.ts';

/**
 * Free text (a geocode `q`, a batch entry) read once: trimmed, with the grammar its shape selects
 * (volume 2, "Query routing for free text"). The premium-capability check decides on `grammar`
 * and the search parses that same grammar (parse.ts parseFreeText): the text is never detected twice.
 */
export interface FreeText {
  readonly text: string;
  /** null: civic text or a place name, for the geocoder. */
  readonly grammar: Grammar | null;
}

export function readFreeText(raw: string): FreeText {
  const text = raw.trim();
  return { text, grammar: detectGrammar(text) };
}
