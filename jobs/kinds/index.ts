import type { IngestKind } from '../kind.ts';
import { assetsKind } from './assets.ts';
import { basemapKind } from './basemap.ts';
import { catalogKind } from './catalog.ts';
import { energyKind } from './energy.ts';
import { geocodingKind } from './geocoding.ts';
import { parcelsKind } from './parcels.ts';
import { roadsKind } from './roads.ts';
import { terrainKind } from './terrain.ts';
import { transitKind } from './transit.ts';

/** Every kind `canmap ingest` accepts and `canmap worker` runs; one file per kind beside this one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- kinds differ in payload type
export const ingestKinds: IngestKind<any>[] = [transitKind, geocodingKind, catalogKind, basemapKind, terrainKind, assetsKind, roadsKind, energyKind, parcelsKind];

export function findKind(name: string) {
  return ingestKinds.find((k) => k.kind === name);
}

export function kindNames(): string[] {
  return ingestKinds.map((k) => k.kind);
}
