import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { roadsKind } from '../../jobs/kinds/roads.ts';
import type { RegisteredRelease } from '../../releases/registry.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import { ApiStack } from '../support/api-stack.ts';
import { sharedData } from '../support/paths.ts';

const ANDORRA = sharedData('osm/graphhopper-andorra.osm.pbf');
const TURN_FIXTURE = sharedData('osm/graphhopper-test_simple_turncosts.osm.xml');

let stack: ApiStack;
let andorra: RegisteredRelease;

beforeAll(async () => {
  stack = await ApiStack.create('roads_release');
  andorra = await stack.publish(() => prepareRoadsRelease(ANDORRA));
  await stack.start();
  await stack.enable(andorra);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('roads releases', () => {
  it('records the graph and what happened to every turn restriction in the manifest', async () => {
    const stats = andorra.manifest.stats as { nodes: number; edges: number; bytes: number; restrictions: Record<string, number> };
    expect(stats.nodes).toBeGreaterThan(1000);
    expect(stats.edges).toBeGreaterThan(stats.nodes);
    const r = stats.restrictions;
    expect(r.applied! + r.viaWayNotApplied! + r.unplaceable!).toBe(r.restrictions);
    expect(andorra.manifest.inputs).toEqual([expect.objectContaining({ name: 'osm', licence: 'ODbL-1.0' })]);
  });

  it('is what the API serves: the graph and a snapping index over it', async () => {
    const served = await stack.server!.app.releases.use(ROADS_KIND, async (network: RoadNetwork) => ({
      releaseId: network.releaseId,
      nodes: network.graph.nodeCount,
      snapped: network.snap.snap(1.5218, 42.5063, 'auto', 200),
    }));
    expect(served.releaseId).toBe(andorra.id);
    expect(served.nodes).toBe((andorra.manifest.stats as { nodes: number }).nodes);
    expect(served.snapped?.distanceMetres).toBeLessThan(200);
  });

  it('reads OSM XML and places the turn-cost fixture\'s restriction', async () => {
    const fixture = await stack.publish(() => prepareRoadsRelease(TURN_FIXTURE));
    expect((fixture.manifest.stats as { restrictions: Record<string, number> }).restrictions).toMatchObject({ restrictions: 1, applied: 1, forbiddenPairs: 1 });
  });

  it('names a missing or absent extract and an unexpected argument', async () => {
    await expect(roadsKind.cli.toPayload([], {})).rejects.toThrow('--osm FILE is required (an OSM extract, PBF or XML)');
    await expect(roadsKind.cli.toPayload([], { osm: 'no/such.osm.pbf' })).rejects.toThrow('--osm no/such.osm.pbf: no such file');
    await expect(roadsKind.cli.toPayload(['x'], {})).rejects.toThrow('unexpected argument "x"');
  });
});
