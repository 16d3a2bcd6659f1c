/** Plans, add-ons and the capabilities add-ons grant (volume 1, "Authentication" rule 4 and "Limits"). */

export const PLANS = ['hobby', 'indie', 'growth'] as const;
export type Plan = (typeof PLANS)[number];

export const ADDONS = ['legal-land', 'energy', 'agriculture', 'remote', 'mining'] as const;
export type Addon = (typeof ADDONS)[number];

/** What a request may need: core (every plan) or one of the premium capabilities an add-on grants. */
export const CAPABILITIES = ['core', 'legalLand', 'energy', 'agriculture', 'remote', 'mining'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export type PremiumCapability = Exclude<Capability, 'core'>;
