import { validateStyleMin, type StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { buildStyle, type StyleRequest } from '../../engines/styles/build-style.ts';
import type { OverlayResolver } from '../../engines/styles/overlays.ts';

export const BASE = 'https://maps.example.ca';
export const KEY = 'pk_test_123';

/** The demo catalog's ids, as the route would resolve them from the enabled release. */
const CATALOG: Record<string, readonly string[]> = {
  municipalities: ['municipalities'],
  parks: ['parks'],
  'energy.wells': ['wells'],
  'energy.mineral-tenure': ['mineral_tenure'],
  'remote.airports': ['airports'],
  'survey.dls': ['dls_township', 'dls_section'],
};

export const resolveOverlay: OverlayResolver = (ref) => {
  if (ref.kind === 'byod') return ref.id === 'abc123' ? { sourceLayers: ['upload'], maxzoom: 12 } : undefined;
  const sourceLayers = CATALOG[ref.id];
  return sourceLayers ? { sourceLayers, minzoom: 4, maxzoom: 14 } : undefined;
};

export function style(request: Partial<StyleRequest> & { style: string }): StyleSpecification {
  return buildStyle({ baseUrl: BASE, key: KEY, resolveOverlay, ...request });
}

export function validationErrors(doc: StyleSpecification): string[] {
  return validateStyleMin(doc).map((error) => error.message);
}
