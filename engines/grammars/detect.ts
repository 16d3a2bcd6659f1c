import { looksLikeUwi } from '../energy/uwi.ts';
import { looksLikePid } from '../parcels/pid.ts';
import { looksLikeDls } from '../survey/dls.ts';
import type { PremiumCapability } from '../../schemas/plans.ts';
import { looksLikeNts } from './nts-detect.ts';

/** The free-text grammars other than civic addresses (volume 2, "Query routing for free text"). */
export type Grammar = 'uwi' | 'pid' | 'dls' | 'nts';

/** The add-on capability each grammar needs (volume 1, rule 4). */
export const GRAMMAR_CAPABILITY: Readonly<Record<Grammar, PremiumCapability>> = {
  uwi: 'energy',
  pid: 'agriculture',
  dls: 'legalLand',
  nts: 'legalLand',
};

/**
 * Which grammar free text is written in, by its shape alone (values are checked by the parser,
 * which names the part at fault). A well identifier holds a land description, so it is tried
 * first; null: a civic address or place, for the geocoder.
 */
export function detectGrammar(text: string): Grammar | null {
  if (text.length > 200) return null;
  if (looksLikeUwi(text)) return 'uwi';
  if (looksLikePid(text)) return 'pid';
  if (looksLikeDls(text)) return 'dls';
  if (looksLikeNts(text)) return 'nts';
  return null;
}
