import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; dev?: boolean; optional?: boolean }>;
};

/** The oldest release of each Node line the project claims, e.g. 20.19.0, 22.13.0, 24.0.0. */
function claimedLineFloors(range: string): string[] {
  return range.split('||').map((part) => semver.minVersion(part.trim())!.version);
}

describe('Node lines', () => {
  const floors = claimedLineFloors(manifest.engines.node);

  it('claims Node 20, 22 and 24', () => {
    expect(floors.map((v) => semver.major(v))).toEqual([20, 22, 24]);
    expect(semver.satisfies(process.version, manifest.engines.node)).toBe(true);
  });

  it("every locked package's own engines accepts the oldest release of every claimed line", () => {
    const refusals: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const wanted = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      if (path === '' || wanted === undefined) continue;
      for (const floor of floors) {
        if (!semver.satisfies(floor, wanted)) refusals.push(`${path}@${entry.version} wants node ${wanted}, not ${floor}`);
      }
    }
    expect(refusals).toEqual([]);
  });
});
