import { startServer } from '../../api/server.ts';
import { prepareAssetsRelease } from '../../ingest/assets/release.ts';
import { prepareBasemapRelease } from '../../ingest/basemap/release.ts';
import { prepareCatalogRelease } from '../../ingest/catalog/release.ts';
import { prepareTerrainRelease } from '../../ingest/terrain/release.ts';
import type { PublishSpec } from '../../releases/publish.ts';
import type { RegisteredRelease } from '../../releases/registry.ts';
import { ApiStack } from '../support/api-stack.ts';
import { freePort } from '../support/free-port.ts';
import { repoPath } from '../support/paths.ts';

/** The demo's basemap inputs: a real downtown Vancouver cut and the project's province outlines. */
const DEMO_BASEMAP = { pbf: repoPath('samples/basemap/downtown-vancouver.osm.pbf'), provinces: repoPath('samples/catalog/provinces.geojson') };

/** The release kinds a map draws from. */
export type MapKind = 'catalog' | 'basemap' | 'assets' | 'terrain';

/** Builds one kind's release from small real inputs into `workDir`, the way its ingest job does. */
type Prepare = (workDir: string) => Promise<PublishSpec>;

/** How the map tests build each kind, one function per kind, from the demo's inputs. */
const PUBLISHERS: Record<MapKind, Prepare> = {
  catalog: (workDir) => prepareCatalogRelease(repoPath('samples/catalog/demo.catalog.json'), { workDir }),
  basemap: (workDir) => prepareBasemapRelease(DEMO_BASEMAP, { workDir }),
  assets: () => prepareAssetsRelease(),
  terrain: () => prepareTerrainRelease([repoPath('samples/terrain/N48W125.hgt.gz')]),
};



/**
 * The API listening for real on 127.0.0.1 with BASE_URL set to that address, so the style
 * documents it answers point a browser back at it; every kind a map draws from published and
 * enabled before it starts.
 */
export class MapStack {
  private constructor(readonly api: ApiStack, readonly url: string) {}

  get key(): string {
    return this.api.key;
  }

  static async start(label: string): Promise<MapStack> {
    const api = await ApiStack.create(label);
    try {
      const releases: RegisteredRelease[] = [];
      for (const prepare of Object.values(PUBLISHERS)) {
        const release = await api.publish(prepare);
        await api.enable(release);
        releases.push(release);
      }
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      api.server = await startServer({ ...api.env.config, host: '127.0.0.1', port, baseUrl: url }, { logger: false });
      await waitUntilServed(api, releases);
      return new MapStack(api, url);
    } catch (err) {
      await api.close();
      throw err;
    }
  }

  pageUrl(query: Record<string, string> = {}): string {
    return `${this.url}/map/?${new URLSearchParams({ key: this.key, ...query })}`;
  }

  close(): Promise<void> {
    return this.api.close();
  }
}

async function waitUntilServed(api: ApiStack, releases: readonly RegisteredRelease[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const served = () => releases.every((r) => api.server!.app.releases.status()[r.kind]?.id === r.id);
  while (!served()) {
    if (Date.now() > deadline) throw new Error(`releases not served: ${JSON.stringify(api.server!.app.releases.status())}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
