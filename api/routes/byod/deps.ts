import type { TilingQueue } from './tiling-queue.ts';

/** What the /byod routes share (made once by ./index.ts). */
export interface ByodRouteDeps {
  tiling: TilingQueue;
}
