import type { ByodFiles } from '../../../engines/byod/files.ts';
import type { OpenArchives } from '../../../engines/byod/open-archives.ts';
import type { UploadChecker } from '../../../engines/byod/upload-checker.ts';
import type { TilingQueue } from './tiling-queue.ts';

/** What the /byod routes share (made once by ./index.ts). */
export interface ByodRouteDeps {
  files: ByodFiles;
  archives: OpenArchives;
  tiling: TilingQueue;
  checker: UploadChecker;
}
