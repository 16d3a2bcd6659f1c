import type { EnergyRecord, WellRecord } from '../energy/release.ts';
import type { ParcelRecord } from '../parcels/release.ts';
import type { GeocodeResult } from '../geocoding/types.ts';
import type { RecordResultOptions } from './legal-land-result.ts';

const withScore = (options: RecordResultOptions) => (options.score === undefined ? {} : { score: options.score });

/** A well or facility of the energy corpus as a geocoding result (a registry point). */
export function energyResult(record: WellRecord | EnergyRecord, options: RecordResultOptions): GeocodeResult {
  const base = {
    name: record.name,
    lng: record.lng,
    lat: record.lat,
    ...withScore(options),
    source: record.source,
    source_id: record.sourceId,
    match_type: 'exact' as const,
    precision: 'point' as const,
    address: { region: record.province, country: 'CA' },
    licence: record.licence,
    operator: record.operator,
    status: record.status,
  };
  return record.kind === 'well'
    ? { id: `well:${record.compact}`, layer: 'well', ...base, uwi: record.uwi }
    : { id: `facility:${record.facilityId}`, layer: 'facility', ...base };
}

/** A BC parcel as a geocoding result: its interior point, box and (geometry=true) polygon. */
export function parcelResult(record: ParcelRecord, province: string, options: RecordResultOptions): GeocodeResult {
  return {
    id: `parcel:${record.pid}`,
    name: record.name || `PID ${record.pid}`,
    layer: 'parcel',
    lng: record.lng,
    lat: record.lat,
    ...withScore(options),
    source: record.source,
    source_id: record.sourceId,
    match_type: 'exact',
    // The interior point of a parcel, not a source point.
    precision: 'unknown',
    address: { ...(record.municipality ? { city: record.municipality } : {}), region: province, country: 'CA' },
    pid: record.pid,
    bbox: record.bbox,
    ...(options.geometry ? { geometry: record.geometry } : {}),
  } as GeocodeResult;
}
