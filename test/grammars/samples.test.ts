import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordLayerFeatures } from '../../samples/catalog/make-record-layers.ts';
import { parseUwi } from '../../engines/energy/uwi.ts';
import { dlsCellAt } from '../../engines/survey/dls.ts';
import { ntsCellAt } from '../../engines/survey/nts.ts';
import { REPO_ROOT } from '../support/paths.ts';

const ndjson = async (file: string) =>
  (await readFile(path.join(REPO_ROOT, 'samples/catalog', file), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as unknown);

describe('the bundled land-record samples', () => {
  it('the catalog layers hold exactly the wells and parcels the corpora are built from', async () => {
    const { wells, parcels } = await recordLayerFeatures();
    expect(await ndjson('wells.ndjson')).toEqual(wells);
    expect(await ndjson('parcels.ndjson')).toEqual(parcels);
    expect(wells.length).toBe(61);
    expect(parcels.length).toBe(27);
  });

  it('every sample well lies in the LSD or BC grid unit its UWI names', async () => {
    const { wells } = await recordLayerFeatures();
    for (const well of wells) {
      const [lng, lat] = (well.geometry as GeoJSON.Point).coordinates as [number, number];
      const { location } = parseUwi(well.properties.uwi!);
      if (location.kind === 'dls') {
        const { lsd, section, township, range, meridian } = location;
        const id = `${String(lsd).padStart(2, '0')}-${String(section).padStart(2, '0')}-${String(township).padStart(3, '0')}-${String(range).padStart(2, '0')}${meridian}`;
        expect(dlsCellAt(lng, lat, 'lsd')?.id, well.properties.uwi).toBe(id);
      } else if (location.kind === 'nts') {
        const unit = `${location.quarterUnit}-${String(location.unit).padStart(3, '0')}-${location.block}/${String(location.series).padStart(3, '0')}-${location.mapArea}-${String(location.sheet).padStart(2, '0')}`;
        expect(ntsCellAt(lng, lat, 'quarter_unit')?.id, well.properties.uwi).toBe(unit);
      }
    }
  });
});
