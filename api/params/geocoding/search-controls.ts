import type { SearchControls } from '../../../engines/geocoding/types.ts';
import { accept, type Checked } from '../../../lib/checked.ts';
import type { SanitizedSearchControls } from '../../../services/geocoding/requests.ts';
import { sanitizeBbox, sanitizeLngLat } from './coordinates.ts';
import { sanitizeLayers } from './layers.ts';
import { sanitizeLimit } from './numbers.ts';
import { sanitizeRegion } from './region.ts';
import { sanitizeLang } from './text.ts';

export interface RawSearchControls {
  lang?: unknown;
  limit?: unknown;
  bbox?: unknown;
  layers?: unknown;
  region?: unknown;
  focus?: unknown;
}

/**
 * The controls shared by /geocode/search, /geocode/structured and /geocode/batch (volume 2,
 * "as on search"), checked in parameter order so the first fault is the one named.
 */
export function sanitizeSearchControls(raw: RawSearchControls, options: { energyAllowed: boolean } = { energyAllowed: true }): Checked<SanitizedSearchControls> {
  const lang = sanitizeLang(raw.lang);
  if (!lang.ok) return lang;
  const bbox = raw.bbox === undefined ? null : sanitizeBbox(raw.bbox);
  if (bbox && !bbox.ok) return bbox;
  const layers = sanitizeLayers(raw.layers, options);
  if (!layers.ok) return layers;
  const region = sanitizeRegion(raw.region);
  if (!region.ok) return region;
  const focus = raw.focus === undefined ? null : sanitizeLngLat('focus', raw.focus);
  if (focus && !focus.ok) return focus;

  const controls: SearchControls = { lang: lang.value, limit: sanitizeLimit(raw.limit, 10) };
  if (bbox) controls.bbox = bbox.value.box;
  if (layers.value.corpus === 'core' && layers.value.layers) controls.layers = layers.value.layers;
  if (region.value !== undefined) controls.region = region.value;
  if (focus) controls.focus = focus.value;
  return accept({ controls, energy: layers.value.corpus === 'energy' ? layers.value.layers : null, empty: bbox?.value.empty ?? false });
}
