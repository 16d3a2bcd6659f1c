import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows } from '../../../lib/duckdb-rows.ts';
import type { CorpusPlace } from '../../../engines/geocoding/corpus.ts';
import type { OsmExtract } from '../osm/extract.ts';
import type { AdminLocator } from './admin-locator.ts';
import { streetKey } from './address-keys.ts';
import { localityPlace, shortHash, type BuildLocality } from './places.ts';

interface StreetGroup {
  key: string;
  loc: number;
  region: string;
  name: string;
  names: Record<string, string>;
  lng: number;
  lat: number;
  addresses: number;
  source: string;
  sourceId: string | null;
}

const groupKey = (key: string, loc: number, region: string) => `${key}|${loc}|${region}`;

/**
 * Streets: one per (normalized name, locality, region), derived from the address points (placed
 * at the point nearest their mean) and merged with OSM's named ways of the same name nearby
 * (an OSM way gives the street its id, language names and an on-street point).
 */
export async function buildStreets(
  connection: DuckDBConnection,
  osmStreets: OsmExtract['streets'],
  locator: AdminLocator,
  localities: BuildLocality[],
  sources: string[],
): Promise<{ places: CorpusPlace[]; fromAddresses: number; fromOsmOnly: number }> {
  const rows = await queryRows<{ street_key: string; loc: number; region_code: string; display: string; n: bigint; src: number; lng: number; lat: number }>(
    connection,
    `WITH g AS (SELECT street_key, loc, region_code, avg(lng) AS ax, avg(lat) AS ay FROM addr_final GROUP BY ALL)
     SELECT a.street_key, a.loc, a.region_code, mode(a.street_display) AS display, count(*) AS n, mode(a.src) AS src,
            arg_min(a.lng, (a.lng - g.ax) ^ 2 + (a.lat - g.ay) ^ 2) AS lng, arg_min(a.lat, (a.lng - g.ax) ^ 2 + (a.lat - g.ay) ^ 2) AS lat
     FROM addr_final a JOIN g USING (street_key, loc, region_code) GROUP BY ALL`,
  );
  const groups = new Map<string, StreetGroup>();
  for (const r of rows) {
    groups.set(groupKey(r.street_key, r.loc, r.region_code), {
      key: r.street_key, loc: r.loc, region: r.region_code, name: r.display, names: {}, lng: r.lng, lat: r.lat,
      addresses: Number(r.n), source: sources[r.src]!, sourceId: null,
    });
  }
  const fromAddresses = groups.size;
  for (const way of osmStreets) {
    const key = streetKey(way.name);
    if (!key) continue;
    const region = locator.regionOf(way.lng, way.lat) ?? '';
    const loc = locator.localityAt(way.lng, way.lat, region || null) ?? -1;
    const id = groupKey(key, loc, region);
    const group = groups.get(id);
    if (!group) {
      groups.set(id, { key, loc, region, name: way.name, names: way.names, lng: way.lng, lat: way.lat, addresses: 0, source: 'osm', sourceId: way.sourceId });
    } else if (group.sourceId === null) {
      Object.assign(group, { name: way.name, names: way.names, lng: way.lng, lat: way.lat, source: 'osm', sourceId: way.sourceId });
    }
  }

  const places = [...groups.values()].map((g): CorpusPlace => {
    const locality = g.loc >= 0 ? localities[g.loc]! : null;
    const stableKey = `${g.key}|${locality ? localityPlace(locality).id : ''}|${g.region}`;
    return {
      layer: 'street',
      source: g.source,
      sourceId: g.sourceId ?? stableKey,
      id: g.sourceId ? `street:osm:${g.sourceId}` : `street:${shortHash(stableKey)}`,
      name: g.name,
      names: g.names,
      lng: g.lng,
      lat: g.lat,
      prominence: g.addresses,
      region: g.region || null,
      locality: g.loc >= 0 ? g.loc : null,
      city: locality?.name ?? null,
      category: null, housenumber: null, street: null, postcode: null,
    };
  });

  await connection.run('CREATE OR REPLACE TABLE street_idx (street_key VARCHAR, loc INTEGER, region_code VARCHAR, idx UINTEGER)');
  const appender = await connection.createAppender('street_idx');
  [...groups.values()].forEach((g, i) => {
    if (!g.addresses) return;
    appender.appendVarchar(g.key);
    appender.appendInteger(g.loc);
    appender.appendVarchar(g.region);
    appender.appendUInteger(i);
    appender.endRow();
  });
  appender.closeSync();
  return { places, fromAddresses, fromOsmOnly: groups.size - fromAddresses };
}
