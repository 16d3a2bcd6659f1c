import type { Manifest } from '../schemas/manifest.ts';
import { diffStats } from './diff.ts';
import { ReleaseError } from './errors.ts';

/** A count may fall by this fraction of its value in the enabled release before enabling is refused. */
export const MAX_SHRINK = 0.1;

/**
 * Stats that measure the build, place it, or count what was thrown away or went wrong, rather
 * than count data served: their falling loses nothing. Matched against the words of the stat's
 * path, split at dots, underscores and camelCase humps (`addresses_dropped`, `viaWayNotApplied`).
 */
const NOT_A_COUNT = new Set([
  'ms', 'seconds', 'bytes', 'width', 'height', 'fraction', 'version', 'bounds', 'lat', 'lng', 'lon',
  'm', 'metres', 'relief', 'notes',
  'skipped', 'dropped', 'refused', 'malformed', 'without', 'invalid', 'failed', 'errors', 'merged', 'void',
  'missing', 'unplaceable', 'not', 'no', 'clamped',
]);

export interface FallenCount {
  /** The stat's path in the manifest's stats, e.g. `rows.locality`. */
  stat: string;
  from: number;
  /** 0 when the new release lacks the stat (nothing of it was built). */
  to: number;
}

function isCount(stat: string): boolean {
  return !stat.split(/[._]|(?=[A-Z])/).some((word) => NOT_A_COUNT.has(word.toLowerCase()));
}

/** The counts of `next` that fall by more than MAX_SHRINK from `current` (from diff.ts's stat comparison). */
export function fallenCounts(current: Manifest, next: Manifest): FallenCount[] {
  const fallen: FallenCount[] = [];
  for (const change of diffStats(current.stats, next.stats)) {
    const stat = change.field.replace(/^stats\./, '');
    if (typeof change.a !== 'number' || change.a <= 0 || !isCount(stat)) continue;
    if (change.b !== null && typeof change.b !== 'number') continue;
    const to = change.b ?? 0;
    if ((change.a - to) / change.a > MAX_SHRINK) fallen.push({ stat, from: change.a, to });
  }
  return fallen;
}

const number = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** `rows.locality 1,234 → 0 (−100 %)` */
export function describeFall(f: FallenCount): string {
  const pct = Math.round(((f.to - f.from) / f.from) * 1000) / 10;
  return `${f.stat} ${number(f.from)} → ${number(f.to)} (${String(pct).replace('-', '−')} %)`;
}

/** Enabling `release` was refused because counts fell too far from the enabled release's. */
export class ShrinkRefusedError extends ReleaseError {
  constructor(readonly kind: string, readonly releaseId: string, readonly enabledId: string, readonly fallen: FallenCount[]) {
    super(
      `${kind} release ${releaseId} not enabled: compared with the enabled ${enabledId}, ` +
        `${fallen.length === 1 ? 'a count falls' : `${fallen.length} counts fall`} by more than ${MAX_SHRINK * 100} %: ${fallen.map(describeFall).join(', ')}`,
    );
  }
}
