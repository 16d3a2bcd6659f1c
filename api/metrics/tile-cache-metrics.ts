import { Counter, Gauge, type Registry } from 'prom-client';
import type { HotTiles } from '../../engines/tiles/hot-tiles.ts';
import { METRIC_PREFIX } from '../../lib/metrics-registry.ts';

/**
 * TILE_CACHE_MB at work: `canmap_tile_cache_bytes{part}` is what whole archives (resident) and kept
 * tiles hold, beside the budget; `canmap_tile_cache_lookups_total{result}` counts the lookups of
 * the kept tiles of large archives (a resident archive's tiles are never looked up there).
 */
export function registerTileCacheMetrics(registry: Registry, hot: HotTiles): void {
  new Gauge({
    name: `${METRIC_PREFIX}tile_cache_bytes`,
    help: 'Bytes of stored tiles held in memory: whole archives (resident) and kept tiles of larger ones (kept)',
    labelNames: ['part'],
    registers: [registry],
    collect() {
      const stats = hot.stats();
      this.set({ part: 'resident' }, stats.residentBytes);
      this.set({ part: 'kept' }, stats.keptBytes);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}tile_cache_budget_bytes`,
    help: 'TILE_CACHE_MB in bytes',
    registers: [registry],
    collect() {
      this.set(hot.budgetBytes);
    },
  });
  new Counter({
    name: `${METRIC_PREFIX}tile_cache_lookups_total`,
    help: 'Lookups of kept tiles: hit (answered from memory) or miss (read from the archive file)',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      const stats = hot.stats();
      this.reset();
      this.inc({ result: 'hit' }, stats.hits);
      this.inc({ result: 'miss' }, stats.misses);
    },
  });
}
