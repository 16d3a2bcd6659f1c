/**
 * Named POI nodes (amenity, shop, tourism, leisure...) from the geocoding corpus's weighted kinds
 * (real Canadian chains where chains are common), with the address of the building they stand in.
 */
import type { Random } from '../../../lib/seeded-random.ts';
import { POI_KINDS, PROVINCIAL_BRANDS } from '../geocoding/poi-kinds.ts';
import type { Tags } from './emitter.ts';
import type { Province } from './names.ts';

export function poiTags(random: Random, province: Province, streetName: string, street: string, number: string): Tags {
  const kind = random.weighted(POI_KINDS);
  const tags: Tags = { ...kind.tags };
  const french = province === 'QC';
  const label = french ? kind.names.fr : kind.names.en;
  const brands = kind.brands.filter((b) => (PROVINCIAL_BRANDS[b] ?? province) === province);
  if (brands.length > 0 && random.chance(0.5)) {
    tags.name = random.pick(brands);
    tags.brand = tags.name;
  } else {
    tags.name = french ? `${label} ${streetName}` : `${streetName} ${label}`;
  }
  if (!french && random.chance(0.1)) tags['name:fr'] = `${kind.names.fr} ${streetName}`;
  tags['addr:housenumber'] = number;
  tags['addr:street'] = street;
  if (random.chance(0.2)) tags.opening_hours = random.pick(['Mo-Fr 09:00-17:00', 'Mo-Sa 08:00-21:00', '24/7', 'Mo-Su 07:00-23:00']);
  return tags;
}
