import { RESULT_LAYERS, type ResultLayer } from '../../../engines/geocoding/types.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

/** Layers served by the energy corpus (energy add-on), not by the geocoding release. */
export const ENERGY_LAYERS = ['well', 'facility'] as const;

export type LayerFilter =
  | { corpus: 'core'; layers: ResultLayer[] | undefined }
  | { corpus: 'energy'; layers: (typeof ENERGY_LAYERS)[number][] };

const EXPECTED = `expected ${RESULT_LAYERS.join(', ')} (or well, facility with the energy add-on)`;

/**
 * layers: a comma list (or, in a batch body, an array) of result layers, case-insensitive,
 * de-duplicated; empty items are ignored and no items at all means no filter. well and
 * facility select the energy corpus and cannot be mixed with core layers. `energyAllowed`
 * false (structured search: civic only) refuses them.
 */
export function sanitizeLayers(raw: unknown, options: { energyAllowed: boolean } = { energyAllowed: true }): Checked<LayerFilter> {
  if (raw === undefined) return accept({ corpus: 'core', layers: undefined });
  const items = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) && raw.every((v) => typeof v === 'string') ? raw : null;
  if (items === null) return reject('layers must be a comma-separated list of layer names');
  const names = [...new Set(items.map((v) => v.trim().toLowerCase()).filter((v) => v !== ''))];
  if (names.length === 0) return accept({ corpus: 'core', layers: undefined });
  const core = names.filter((n): n is ResultLayer => (RESULT_LAYERS as readonly string[]).includes(n));
  const energy = names.filter((n): n is (typeof ENERGY_LAYERS)[number] => (ENERGY_LAYERS as readonly string[]).includes(n));
  const unknown = names.find((n) => !core.includes(n as ResultLayer) && !energy.includes(n as (typeof ENERGY_LAYERS)[number]));
  if (unknown !== undefined) return reject(`layers has an unknown layer ${JSON.stringify(unknown)}; ${EXPECTED}`);
  if (energy.length > 0 && !options.energyAllowed) {
    return reject(`layers ${energy.join(', ')} ${energy.length > 1 ? 'are' : 'is'} not searchable here (civic layers only: ${RESULT_LAYERS.join(', ')})`);
  }
  if (energy.length > 0 && core.length > 0) {
    return reject(`layers cannot mix ${energy.join(', ')} (energy corpus) with ${core.join(', ')}`);
  }
  return accept(energy.length > 0 ? { corpus: 'energy', layers: energy } : { corpus: 'core', layers: core });
}
