// `npm run bench:transit`: both halves of the transit benchmark in one run on one machine —
// import (canmap vs the gtfs package's importGtfs, real and 5M stop_times feeds), then HTTP
// latency of departures and nearby stops on the 5M release. Each half prints its own table.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const script of ['import.ts', 'http.ts']) {
  console.log(`\n=== bench/transit/${script} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, script)], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
