import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** A browser page's files revalidate soon (they change with deploys); a vendored library's change with its version only. */
export const PAGE_CACHE = 'public, max-age=300';
export const VENDOR_CACHE = 'public, max-age=86400';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** One file of a fixed allow-list: the URL path it answers, the file on disk, its Cache-Control. */
export interface StaticFileEntry {
  url: string;
  file: string;
  cache: string;
}

export interface StaticFile {
  url: string;
  body: Buffer;
  contentType: string;
  cacheControl: string;
  etag: string;
}

/**
 * Reads an allow-list of page files once, at start, so no request path ever reaches the disk.
 * `fill` may rewrite a file's text (a page's placeholders) before its ETag is taken.
 */
export async function loadStaticFiles(
  owner: string,
  entries: readonly StaticFileEntry[],
  fill: (url: string, body: Buffer) => Buffer = (_url, body) => body,
): Promise<StaticFile[]> {
  return Promise.all(entries.map(async ({ url, file, cache }) => {
    const contentType = TYPES[path.extname(file)];
    if (contentType === undefined) throw new Error(`${owner}: no content type for ${file}`);
    const body = fill(url, await readFile(file));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    return { url, body, contentType, cacheControl: cache, etag };
  }));
}
