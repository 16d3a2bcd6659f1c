/**
 * POST /match with large GPS accuracies answers promptly (issue 28, item 1: the backward search
 * walked every way back without a visited set, so a 2-point walking trace at gps_accuracy 100 ran
 * for over 11 minutes with the event loop blocked). The API runs as `canmap serve` in a child
 * process on the Vancouver roads release (pelias-vancouver_canada.osm.pbf, © OpenStreetMap
 * contributors, ODbL), so a search that never ends fails the request's deadline instead of
 * hanging the test run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { ApiStack } from '../support/api-stack.ts';
import { stopCanmapProcess, startCanmapProcess, type CanmapProcess } from '../support/canmap-process.ts';
import { sharedData } from '../support/paths.ts';

/** Each request's deadline: the fixed search answers these in well under a second, the old one took minutes. */
const DEADLINE_MS = 15_000;
const FROM = { lng: -123.1207, lat: 49.2827 };

let stack: ApiStack;
let serve: CanmapProcess | undefined;
let api = '';

async function post(body: unknown, timeoutMs = DEADLINE_MS): Promise<{ status: number; ms: number; body: { code?: string } }> {
  const started = performance.now();
  const response = await fetch(`${api}/match`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, body: (await response.json()) as { code?: string }, ms: performance.now() - started };
}

beforeAll(async () => {
  stack = await ApiStack.create('routing_match_bounded');
  const release = await stack.publish(() => prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await stack.enable(release);
  serve = await startCanmapProcess(['serve'], stack.env.env, /canmap API ready/, 60_000);
  const ready = serve.output().split('\n').map((l) => { try { return JSON.parse(l) as { msg?: string; api?: string }; } catch { return null; } })
    .find((l) => l?.msg === 'canmap API ready');
  api = ready!.api!;
  const deadline = Date.now() + 60_000;
  while ((await post({ points: [[-123.1115, 49.2856], [-123.11, 49.285]] }, 30_000)).status === 503) {
    if (Date.now() > deadline) throw new Error('the roads release was not served within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);

afterAll(async () => {
  await stopCanmapProcess(serve);
  await stack?.close();
});

describe('POST /match with large GPS accuracies', () => {
  it.each([
    ['the issue\'s repro: 2 walking points 580 m apart at gps_accuracy 100', { points: [[FROM.lng, FROM.lat], [-123.1150, 49.2790]], mode: 'pedestrian', gps_accuracy: 100 }],
    ['per-point accuracy 400, walking, 1.4 km', { points: [{ ...FROM, accuracy: 400 }, { lng: -123.1050, lat: 49.2760, accuracy: 400 }], mode: 'pedestrian' }],
    ['mode auto at gps_accuracy 400, search_radius 200, 1.4 km', { points: [[FROM.lng, FROM.lat], [-123.1050, 49.2760]], mode: 'auto', gps_accuracy: 400, search_radius: 200 }],
  ])('answers %s within the deadline', async (_name, body) => {
    const answer = await post(body);
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(DEADLINE_MS);
  }, 2 * DEADLINE_MS);
});
