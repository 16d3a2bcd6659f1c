import type { KeyRecord } from '../../lib/keys.ts';
import { missingAddon } from '../../engines/access/plans.ts';
import type { PremiumCapability } from '../../schemas/plans.ts';
import { errors } from '../errors.ts';

/** What each premium capability lets a request do, for the addon_required message. */
const WHAT_IT_GRANTS: Readonly<Record<PremiumCapability, string>> = {
  legalLand: 'Legal land descriptions (DLS, NTS, parcels)',
  energy: 'Well and facility search',
  agriculture: 'Agricultural layers',
  remote: 'Remote-area layers',
  mining: 'Mining layers',
};

/** 403 addon_required (volume 1) when the key's account lacks the add-on of `capability`. */
export function requireCapability(key: KeyRecord | null, capability: PremiumCapability): void {
  const addon = missingAddon(key, capability);
  if (addon === null) return;
  throw errors.addonRequired(capability, `addon-${addon}`, `${WHAT_IT_GRANTS[capability]} needs the ${addon} add-on (addon-${addon}) on this account.`);
}
