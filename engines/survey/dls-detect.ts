import { scanDls } from './dls-scan.ts';

/**
 * Whether text has the shape of a DLS description, values unchecked (so "NW-37-24-1-W5" is one
 * and parseDls then names section 37): two to four numbers made of no other words than the
 * survey's, and a meridian (W1–W6, WPM, EPM, E1, West of the Nth Meridian), or both Twp and Rge
 * keywords, or an LSD or Sec keyword with at least three numbers. Half sections and river lots
 * count, so that parseDls can say why it refuses them. False for civic addresses, postal codes,
 * NTS references and UWIs (100/06-32-048-07W5/00, 100143608517W600).
 */
export function looksLikeDls(text: string): boolean {
  const result = scanDls(text);
  if (!result.ok) return false;
  const { scan } = result;
  if (scan.trailing > 0) return false;
  const count = scan.bare.length + Object.keys(scan.labelled).length;
  if (scan.riverLot) return count >= 1 && count <= 4;
  if (count < 2 || count > 4) return false;
  if (scan.meridian !== undefined) return true;
  if (scan.keywords.has('township') && scan.keywords.has('range')) return true;
  return (scan.keywords.has('lsd') || scan.keywords.has('section')) && count >= 3;
}
