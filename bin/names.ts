import { closest, distance } from 'fastest-levenshtein';
import { CliError } from './output.ts';

/** Other names people use for a kind; `canmap ingest gtfs` means transit. */
export const KIND_ALIASES: Readonly<Record<string, string>> = {
  gtfs: 'transit',
  geocode: 'geocoding',
  geocoder: 'geocoding',
  dem: 'terrain',
  elevation: 'terrain',
  routing: 'roads',
};

/** Singular names of commands that are plural (`canmap release list`). */
export const COMMAND_ALIASES: Readonly<Record<string, string>> = {
  key: 'keys',
  account: 'accounts',
  job: 'jobs',
  release: 'releases',
};

/** The candidate `name` is most likely a slip for: a few edits away, or a start of it. */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  if (!name || candidates.length === 0) return undefined;
  const lower = name.toLowerCase();
  const best = closest(lower, candidates);
  if (distance(lower, best) <= Math.max(2, Math.floor(best.length / 3))) return best;
  return lower.length >= 3 ? candidates.find((c) => c.startsWith(lower)) : undefined;
}

/** The name itself when valid, its alias's target when it has one, else undefined. */
export function resolveName(name: string, valid: readonly string[], aliases: Readonly<Record<string, string>> = {}): string | undefined {
  if (valid.includes(name)) return name;
  const target = Object.hasOwn(aliases, name.toLowerCase()) ? aliases[name.toLowerCase()] : undefined;
  return target && valid.includes(target) ? target : undefined;
}

/** `unknown kind "transt" (did you mean "transit"?); kinds: …` as a usage error (exit 2). */
export function unknownNameError(what: string, name: string, valid: readonly string[], extra = ''): CliError {
  const guess = nearest(name, valid);
  return new CliError(`unknown ${what} "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}; ${what}s: ${valid.join(', ')}${extra}`, 2);
}
