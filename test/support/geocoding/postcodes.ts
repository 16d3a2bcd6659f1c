/**
 * Plausible Canadian postal codes for the synthetic corpus. The first letter follows the
 * province (Ontario and Quebec split by area, as Canada Post does: M Toronto, H Montréal, ...);
 * a rural locality (population < 10,000) gets one FSA with a 0 second digit, an urban one an FSA
 * per ~30,000 people in angular sectors around its centre; LDUs (`1A1`) are handed out in order
 * within each FSA, one per block face, so neighbouring addresses share a code.
 */

/** Letters Canada Post uses after the first character (no D F I O Q U). */
const LETTERS = 'ABCEGHJKLMNPRSTVWXYZ';

const SINGLE_LETTER: Record<string, string> = {
  NL: 'A', NS: 'B', PE: 'C', NB: 'E', MB: 'R', SK: 'S', AB: 'T', BC: 'V', NT: 'X', NU: 'X', YT: 'Y',
};

function kmBetween(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const x = (lng2 - lng1) * Math.cos(((lat1 + lat2) / 2) * (Math.PI / 180)) * 111.32;
  const y = (lat2 - lat1) * 111.32;
  return Math.hypot(x, y);
}

/** First letter of the postal codes of a locality at lng,lat in `region`. */
export function postalLetter(region: string, lng: number, lat: number): string {
  const single = SINGLE_LETTER[region];
  if (single) return single;
  if (region === 'QC') {
    if (kmBetween(lng, lat, -73.5673, 45.5017) < 40) return 'H';
    return lng > -72.5 || lat > 46.5 ? 'G' : 'J';
  }
  if (region === 'ON') {
    if (kmBetween(lng, lat, -79.3832, 43.6532) < 25) return 'M';
    if (lat > 46) return 'P';
    if (lng > -77.5) return 'K';
    if (lng < -80.2) return 'N';
    return 'L';
  }
  throw new Error(`no postal letter for region ${region}`);
}

/** Hands out FSAs per first letter and LDUs per FSA; wraps around (and so repeats) once a range is used up. */
export class PostcodeAllocator {
  private readonly ruralNext = new Map<string, number>();
  private readonly urbanNext = new Map<string, number>();
  private readonly lduNext = new Map<string, number>();

  /** The FSAs of one locality: one for a rural place, one per ~30,000 people for a town or city. */
  fsasFor(letter: string, population: number): string[] {
    if (population < 10_000) {
      const i = this.ruralNext.get(letter) ?? 0;
      this.ruralNext.set(letter, i + 1);
      return [`${letter}0${LETTERS[i % LETTERS.length]}`];
    }
    const count = Math.max(1, Math.ceil(population / 30_000));
    const out: string[] = [];
    for (let k = 0; k < count; k++) {
      const i = this.urbanNext.get(letter) ?? 0;
      this.urbanNext.set(letter, i + 1);
      const slot = i % (9 * LETTERS.length);
      out.push(`${letter}${1 + (slot % 9)}${LETTERS[Math.floor(slot / 9)]}`);
    }
    return out;
  }

  /** The next unused local delivery unit of an FSA, as a full code `A1A 1A1`. */
  nextCode(fsa: string): string {
    const c = this.lduNext.get(fsa) ?? 0;
    this.lduNext.set(fsa, c + 1);
    const slot = c % (9 * LETTERS.length * 10);
    return `${fsa} ${1 + Math.floor(slot / (LETTERS.length * 10))}${LETTERS[Math.floor(slot / 10) % LETTERS.length]}${slot % 10}`;
  }
}
