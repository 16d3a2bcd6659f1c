import { KeyInputError } from '../../lib/keys.ts';
import { ADDONS, PLANS, type Addon, type Plan, type PremiumCapability } from '../../schemas/plans.ts';

/** The add-on that grants each premium capability. */
export const ADDON_OF_CAPABILITY: Readonly<Record<PremiumCapability, Addon>> = {
  legalLand: 'legal-land',
  energy: 'energy',
  agriculture: 'agriculture',
  remote: 'remote',
  mining: 'mining',
};


/** `dev` is how the hobby plan is shown to customers. */
export function parsePlan(input: string): Plan {
  const plan = input.trim().toLowerCase() === 'dev' ? 'hobby' : input.trim().toLowerCase();
  if (!(PLANS as readonly string[]).includes(plan)) {
    throw new KeyInputError(`unknown plan "${input}"; expected one of dev, ${PLANS.join(', ')}`);
  }
  return plan as Plan;
}

export function parseAddons(inputs: string[]): Addon[] {
  const names = inputs.flatMap((i) => i.split(',')).map((a) => a.trim().toLowerCase()).filter(Boolean);
  for (const name of names) {
    if (!(ADDONS as readonly string[]).includes(name)) {
      throw new KeyInputError(`unknown add-on "${name}"; expected one of ${ADDONS.join(', ')}`);
    }
  }
  return [...new Set(names)] as Addon[];
}

export function parseSpendCap(input: string): number {
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(input.trim())) {
    throw new KeyInputError(`spend cap "${input}" must be an amount >= 0 with at most two decimals, e.g. 25 or 12.50`);
  }
  return Number(input.trim());
}
