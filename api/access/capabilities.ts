import type { KeyRecord } from '../../lib/keys.ts';
import { errors } from '../errors.ts';

/**
 * Well and facility search needs the energy add-on (volume 1, addon_required). Keys with no
 * account (founder and integration keys) are exempt.
 */
export function requireEnergyAddon(key: KeyRecord | null): void {
  if (!key || key.accountId === null || key.addons.includes('energy')) return;
  throw errors.addonRequired('energy', 'addon-energy', 'Well and facility search needs the energy add-on (addon-energy) on this account.');
}
