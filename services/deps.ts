import type { Redis } from 'ioredis';
import type { Config } from '../lib/config.ts';
import type { Pool } from '../lib/postgres.ts';
import type { ReleaseStore } from '../releases/reader.ts';
import type { HotTiles } from '../engines/tiles/hot-tiles.ts';

/**
 * What every capability's facade is built from, once, at start-up: the validated config, the
 * enabled releases, the control-plane pool, the API's Redis (absent in tests of other concerns)
 * and the clock of time-dependent answers.
 */
export interface ServiceDeps {
  config: Config;
  releases: ReleaseStore;
  pool: Pool;
  redis?: Redis;
  now: () => number;
  /** The process's memory for stored tile bytes (uploads' tiles share it with the releases'). */
  hotTiles: HotTiles;
}

/** Where a facade logs what an operator should see about a request it answered (a request's logger fits). */
export interface ServiceLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
