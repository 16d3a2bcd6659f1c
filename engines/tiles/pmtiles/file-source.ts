import { open, type FileHandle } from 'node:fs/promises';
import type { RangeResponse, Source } from 'pmtiles';

/**
 * A local archive as a `pmtiles` reader source: range reads through one file handle, opened on
 * the first read. The API serves tiles through it; tests read back what the writer wrote.
 */
export class FileSource implements Source {
  private handle: Promise<FileHandle> | null = null;

  constructor(readonly path: string) {}

  getKey(): string {
    return this.path;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    this.handle ??= open(this.path, 'r');
    const handle = await this.handle;
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return { data: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + bytesRead) as ArrayBuffer };
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    if (handle) await (await handle).close();
  }
}
