/**
 * The serving-cost benchmark's stack: `canmap demo` builds and enables every bundled sample release
 * in a test environment of its own and is stopped; then `canmap serve` processes serve them, each
 * on its own port, with the settings a run compares.
 */
import type { BenchRequest } from '../routing/serve-requests.ts';
import type { TestEnv } from '../../test/support/env.ts';
import { freePort, startCanmap, type CanmapChild } from '../support/processes.ts';

/** Builds and enables the demo's releases; returns kind → release id. */
export async function buildDemoReleases(env: TestEnv): Promise<Record<string, string>> {
  const demo = startCanmap(['demo', '--json'], env.env);
  try {
    // The demo prints its one JSON document once everything is enabled, then serves until stopped.
    while (!demo.stdout().trimEnd().endsWith('}')) {
      if (demo.child.exitCode !== null) throw new Error(`canmap demo exited:\n${demo.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return (JSON.parse(demo.stdout()) as { releases: Record<string, string> }).releases;
  } finally {
    await demo.stop();
  }
}

export interface ServingApi {
  url: string;
  pid: number;
  /** One request with the key, its status (0 when the connection failed). */
  send(request: BenchRequest): Promise<number>;
  stop(): Promise<void>;
}

/** `canmap serve` (one API process) on the env's releases with `settings`, once it answers `probe` with 200. */
export async function startServing(env: TestEnv, key: string, settings: Record<string, string>, probe: BenchRequest): Promise<ServingApi> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: CanmapChild = startCanmap(['serve'], { ...env.env, PORT: String(port), BASE_URL: url, LOG_LEVEL: 'warn', ...settings });
  const send = (r: BenchRequest) => fetch(`${url}${r.path}${r.path.includes('?') ? '&' : '?'}key=${key}`, {
    method: r.method, ...(r.body === undefined ? {} : { body: r.body, headers: { 'content-type': 'application/json' } }),
  }).then(async (res) => (await res.arrayBuffer(), res.status), () => 0);
  for (let status = 0; status !== 200;) {
    await new Promise((r) => setTimeout(r, 250));
    if (child.child.exitCode !== null) throw new Error(`canmap serve exited:\n${child.output()}`);
    status = await send(probe);
  }
  return { url, pid: child.child.pid!, send, stop: () => child.stop() };
}
