import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ByodKind } from '../../schemas/byod-api.ts';
import { isOverlayId } from '../../engines/byod/overlay-id.ts';

/**
 * The stored bytes of uploaded overlays, in one directory (BYOD_DIR):
 *   <id>.geojson | <id>.pmtiles   the upload as received
 *   <id>.tiles.pmtiles            the tiles of a GeoJSON upload (the tiling job writes it)
 *   .incoming/<random>.part       bodies being received and archives being written
 * Every name is made here from a generated id, never from user input. A file becomes visible
 * under its final name only complete and synced (write to .incoming, fsync, rename, fsync dir).
 */

export interface ReceivedFile {
  /** The temporary file under .incoming/ holding the body. */
  path: string;
  bytes: number;
  sha256: string;
  /** The first bytes, to tell a PMTiles archive from GeoJSON without reading the file again. */
  head: Buffer;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`file is larger than ${maxBytes} bytes`);
  }
}

/** The body stopped before its end: the client went away, or the connection was closed on it. */
export class IncompleteBodyError extends Error {
  constructor() {
    super('the upload ended before its body was complete');
  }
}

const HEAD_BYTES = 16;

export class ByodFiles {
  readonly incomingDir: string;

  constructor(readonly dir: string) {
    this.incomingDir = path.join(dir, '.incoming');
  }

  sourcePath(id: string, kind: ByodKind): string {
    return path.join(this.dir, `${checkedId(id)}.${kind}`);
  }

  tilesPath(id: string): string {
    return path.join(this.dir, `${checkedId(id)}.tiles.pmtiles`);
  }

  /** The archive the tile route reads: the upload itself, or the tiles made of a GeoJSON upload. */
  archivePath(id: string, kind: ByodKind): string {
    return kind === 'pmtiles' ? this.sourcePath(id, kind) : this.tilesPath(id);
  }

  /** A fresh name under .incoming/ (created on first use). */
  async tempPath(label = 'upload'): Promise<string> {
    await mkdir(this.incomingDir, { recursive: true });
    return path.join(this.incomingDir, `${label}-${randomBytes(8).toString('hex')}.part`);
  }

  /**
   * Streams a body to a temporary file, hashing it. Past maxBytes it stops reading (the stream is
   * paused, not drained: the caller answers and closes the connection), removes what it wrote and
   * rejects with FileTooLargeError; nothing beyond maxBytes + one chunk is ever held. A stream
   * that fails or closes early rejects with its error (else IncompleteBodyError). Whichever way it
   * settles, the descriptor is closed and, unless it resolved, the temporary file removed.
   */
  async receive(stream: Readable, maxBytes: number): Promise<ReceivedFile> {
    // Listening before the first await: a stream destroyed while the file is being opened (the
    // client went away, the form ended early) emits nothing more, and the read would wait forever.
    let failed: Error | undefined;
    const onEarlyError = (err: Error) => void (failed ??= err);
    stream.on('error', onEarlyError);
    let handle: FileHandle | undefined;
    let file: string | undefined;
    try {
      file = await this.tempPath();
      handle = await open(file, 'wx');
    } catch (err) {
      stream.off('error', onEarlyError);
      stream.on('error', () => {});
      if (file) await rm(file, { force: true });
      throw err;
    }
    stream.off('error', onEarlyError);
    return this.receiveOpen(stream, maxBytes, file, handle, () => failed ?? stream.errored ?? (stream.destroyed ? new IncompleteBodyError() : undefined));
  }

  private async receiveOpen(stream: Readable, maxBytes: number, file: string, handle: FileHandle, failedEarly: () => Error | undefined): Promise<ReceivedFile> {
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headBytes = 0;
    let bytes = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        let writing = Promise.resolve();
        let stopped = false;
        const stop = (err?: Error) => {
          if (stopped) return;
          stopped = true;
          stream.off('data', onData);
          stream.off('end', onEnd);
          stream.off('error', stop);
          stream.off('close', onClose);
          // A later error of a stream left unread (the client goes away) must not go unhandled.
          stream.on('error', () => {});
          if (err) {
            stream.pause();
            writing.then(() => reject(err), () => reject(err));
          } else writing.then(resolve, reject);
        };
        const onData = (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > maxBytes) return stop(new FileTooLargeError(maxBytes));
          hash.update(chunk);
          if (headBytes < HEAD_BYTES) {
            head.push(chunk.subarray(0, HEAD_BYTES - headBytes));
            headBytes += Math.min(chunk.length, HEAD_BYTES - headBytes);
          }
          stream.pause();
          writing = writing.then(() => handle.write(chunk)).then(() => void stream.resume());
          writing.catch(stop);
        };
        const onEnd = () => stop();
        // A client that goes away mid-body: 'close' without 'end'.
        const onClose = () => stop(stream.errored ?? new IncompleteBodyError());
        const early = failedEarly();
        if (early) return stop(early);
        stream.on('data', onData);
        stream.once('end', onEnd);
        stream.once('error', stop);
        stream.once('close', onClose);
        stream.resume();
      });
      await handle.sync();
    } catch (err) {
      await handle.close().catch(() => {});
      await rm(file, { force: true });
      throw err;
    }
    await handle.close();
    return { path: file, bytes, sha256: hash.digest('hex'), head: Buffer.concat(head) };
  }

  /** Makes a complete temporary file visible under its final name: fsync, rename, fsync the directory. */
  async commit(tempPath: string, finalPath: string): Promise<void> {
    const handle = await open(tempPath, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tempPath, finalPath);
    await syncDirectory(this.dir);
  }

  /** Removes every file of an overlay (after its row is gone). */
  async removeOverlay(id: string): Promise<void> {
    await Promise.all([
      rm(this.sourcePath(id, 'geojson'), { force: true }),
      rm(this.sourcePath(id, 'pmtiles'), { force: true }),
      rm(this.tilesPath(id), { force: true }),
    ]);
  }

  /**
   * Files left behind by a crash, older than `olderThanMs`: temporary files, and overlay files
   * whose id `isKnown` does not know (a crash between storing a file and its row, or between
   * deleting a row and its files). Returns what it removed.
   */
  async removeLeftovers(isKnown: (ids: string[]) => Promise<Set<string>>, olderThanMs: number, nowMs = Date.now()): Promise<string[]> {
    const old = async (file: string) => {
      const info = await stat(file).catch(() => null);
      return info !== null && nowMs - info.mtimeMs > olderThanMs;
    };
    const removed: string[] = [];
    for (const name of await readdir(this.incomingDir).catch(() => [] as string[])) {
      const file = path.join(this.incomingDir, name);
      if (await old(file)) {
        // Also the tiler's scratch folders (a tiling killed with its worker).
        await rm(file, { recursive: true, force: true });
        removed.push(path.join('.incoming', name));
      }
    }
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter((n) => isOverlayId(n.split('.')[0]!) && !n.startsWith('.'));
    const known = await isKnown([...new Set(names.map((n) => n.split('.')[0]!))]);
    for (const name of names) {
      if (known.has(name.split('.')[0]!)) continue;
      const file = path.join(this.dir, name);
      if (await old(file)) {
        await rm(file, { force: true });
        removed.push(name);
      }
    }
    return removed;
  }
}

function checkedId(id: string): string {
  if (!isOverlayId(id)) throw new Error(`not an overlay id: ${JSON.stringify(id.slice(0, 40))}`);
  return id;
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
