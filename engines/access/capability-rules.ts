import type { KeyRecord } from '../../lib/keys.ts';
import type { PremiumCapability } from '../../schemas/plans.ts';
import { GRAMMAR_CAPABILITY, type Grammar } from '../grammars/detect.ts';
import { readFreeText, type FreeText } from '../grammars/free-text.ts';
import { ADDON_OF_CAPABILITY } from './plans.ts';

/**
 * The one table of what needs a premium capability (volume 1, Authentication rule 4): an
 * endpoint, where its parameter arrives, and the values that select premium data. Routes never
 * test plans or add-ons; the API's access hook reads this table. Add a row per gated parameter.
 */
export interface CapabilityRule {
  method: 'GET' | 'POST';
  /** The route as registered (Fastify's routeOptions.url). */
  route: string;
  from: 'query' | 'body' | 'params';
  param: string;
  /** Any of these (case-insensitive, in a comma list or an array) needs the capability. */
  values?: readonly string[];
  /** Text in this grammar (the whole parameter, or any entry of an array) needs the capability. */
  grammar?: Grammar;
  capability: PremiumCapability;
  /** What it grants, for the 403 message. */
  grants: string;
}

const ENERGY_LAYERS = ['well', 'facility'];
const WELLS_AND_FACILITIES = 'Well and facility search';

/** The industry layers of the catalog (volume 3 "Layer catalog row"); a catalog build checks its rows' addon against these. */
const CATALOG_LAYERS: readonly { ids: readonly string[]; capability: PremiumCapability; grants: string }[] = [
  { ids: ['survey.dls', 'survey.nts'], capability: 'legalLand', grants: 'The survey grid layers' },
  { ids: ['survey.parcels'], capability: 'agriculture', grants: 'The parcel layer' },
  { ids: ['energy.wells'], capability: 'energy', grants: 'The well layer' },
  { ids: ['energy.mineral-tenure'], capability: 'mining', grants: 'The mineral tenure layer' },
  { ids: ['remote.airports'], capability: 'remote', grants: 'The remote airports layer' },
];

/** Every way a request names catalog layers: the tile path and its TileJSON, identify's list, query's one layer. */
const CATALOG_ROUTES = [
  { route: '/layers/:id/:z/:x/:y', from: 'params', param: 'id' },
  { route: '/layers/:id/tiles.json', from: 'params', param: 'id' },
  { route: '/identify', from: 'query', param: 'layers' },
  { route: '/data/query', from: 'query', param: 'layer' },
] as const;

/** What each free-text grammar grants, for the 403 message. */
const GRAMMAR_GRANTS: Readonly<Record<Grammar, string>> = {
  dls: 'Dominion Land Survey search',
  nts: 'NTS and BC grid search',
  uwi: 'Well identifier (UWI) search',
  pid: 'Parcel id (PID) search',
};

/** Where free text arrives: routed by its grammar (volume 2, "Query routing for free text"); structured search never is. */
const FREE_TEXT = [
  { method: 'GET', route: '/geocode/search', from: 'query', param: 'q' },
  { method: 'GET', route: '/geocode/autocomplete', from: 'query', param: 'q' },
  { method: 'POST', route: '/geocode/batch', from: 'body', param: 'queries' },
] as const;

export const CAPABILITY_RULES: readonly CapabilityRule[] = [
  { method: 'GET', route: '/geocode/search', from: 'query', param: 'layers', values: ENERGY_LAYERS, capability: 'energy', grants: WELLS_AND_FACILITIES },
  { method: 'POST', route: '/geocode/batch', from: 'body', param: 'layers', values: ENERGY_LAYERS, capability: 'energy', grants: WELLS_AND_FACILITIES },
  ...FREE_TEXT.flatMap((at) => (Object.keys(GRAMMAR_CAPABILITY) as Grammar[]).map((grammar) =>
    ({ ...at, grammar, capability: GRAMMAR_CAPABILITY[grammar], grants: GRAMMAR_GRANTS[grammar] }))),
  { method: 'GET', route: '/geocode/reverse', from: 'query', param: 'layers', values: ['legal_land'], capability: 'legalLand', grants: 'Survey cell lookup by location' },
  ...CATALOG_ROUTES.flatMap(({ route, from, param }) =>
    CATALOG_LAYERS.map(({ ids, capability, grants }) => ({ method: 'GET' as const, route, from, param, values: ids, capability, grants }))),
];

/** The capability a catalog layer needs (null: core), by the table above. */
export function catalogLayerCapability(layerId: string): PremiumCapability | null {
  return CATALOG_LAYERS.find((l) => l.ids.includes(layerId))?.capability ?? null;
}

const RULES_BY_ROUTE = new Map<string, CapabilityRule[]>();
for (const rule of CAPABILITY_RULES) {
  const key = `${rule.method} ${rule.route}`;
  RULES_BY_ROUTE.set(key, [...(RULES_BY_ROUTE.get(key) ?? []), rule]);
}

/** Whether any route needs a capability check at all (a route without rules costs nothing per request). */
export const routeHasCapabilityRules = (method: string, route: string): boolean => RULES_BY_ROUTE.has(`${method} ${route}`);

const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function tokens(value: unknown): string[] {
  const items = typeof value === 'string' ? value.split(',') : strings(value);
  return items.map((v) => v.trim().toLowerCase());
}

function selects(rule: CapabilityRule, value: unknown, freeText: readonly FreeText[] | null | undefined): boolean {
  if (rule.grammar) return (freeText ?? strings(value).map(readFreeText)).some((text) => text.grammar === rule.grammar);
  return tokens(value).some((t) => rule.values!.includes(t));
}

/**
 * The premium capabilities a request needs, by the table. `freeText`: the free-text parameter as the
 * geocode routes read it once (engines/grammars/free-text.ts), so the search parses what was gated.
 */
export function requiredCapabilities(
  method: string, route: string, input: { query: unknown; body: unknown; params?: unknown; freeText?: readonly FreeText[] | null },
): CapabilityRule[] {
  const rules = RULES_BY_ROUTE.get(`${method} ${route}`);
  if (!rules) return [];
  return rules.filter((rule) => {
    const source = input[rule.from];
    if (typeof source !== 'object' || source === null || !Object.hasOwn(source, rule.param)) return false;
    return selects(rule, (source as Record<string, unknown>)[rule.param], input.freeText);
  });
}

export type CapabilityRefusal = { code: 'addon_required' | 'dev_only' | 'usage_limit_reached'; rule: CapabilityRule; addon: string };

/**
 * Who may use a premium capability (volume 1, Errors and Limits): keys with no account (founder,
 * integration) always. Without the add-on, a paid plan never (`addon_required`) and the dev
 * (hobby) plan from dev origins only (elsewhere `dev_only`). A dev-plan account past its premium
 * calls of the month (`premiumLimitedMonth` is this UTC month) gets `usage_limit_reached`, add-on
 * or not, until the month ends.
 */
export function capabilityRefusal(key: KeyRecord | null, rule: CapabilityRule, fromDevOrigin: boolean, month: string): CapabilityRefusal | null {
  if (!key || key.accountId === null) return null;
  const addon = `addon-${ADDON_OF_CAPABILITY[rule.capability]}`;
  const hasAddon = key.addons.includes(ADDON_OF_CAPABILITY[rule.capability]);
  if (!hasAddon && key.plan !== 'hobby') return { code: 'addon_required', rule, addon };
  if (!hasAddon && !fromDevOrigin) return { code: 'dev_only', rule, addon };
  if (key.plan === 'hobby' && key.premiumLimitedMonth === month) return { code: 'usage_limit_reached', rule, addon };
  return null;
}
