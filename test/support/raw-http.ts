import { readdir, readlink } from 'node:fs/promises';
import net from 'node:net';

/**
 * HTTP/1.1 written by hand on a real socket, for bodies no well-behaved client sends: a body that
 * stops short of its Content-Length, a multipart form without its closing boundary, a client that
 * goes quiet or goes away mid-body.
 */

export interface RawAnswer {
  /** The status of the answer, null when the server closed without answering. */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** ms from the last byte written to the first byte of the answer (null: none). */
  answeredAfterMs: number | null;
  /** ms from the last byte written to the server closing the connection (null: still open). */
  closedAfterMs: number | null;
}

export interface RawExchange {
  socket: net.Socket;
  /** Resolves once the server has closed the connection, or after waitMs with what came so far. */
  answer(waitMs: number): Promise<RawAnswer>;
}

function parse(raw: string): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const end = raw.indexOf('\r\n\r\n');
  if (!raw.startsWith('HTTP/')) return { status: null, headers: {}, body: raw };
  const [statusLine, ...lines] = raw.slice(0, end < 0 ? raw.length : end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: end < 0 ? '' : raw.slice(end + 4) };
}

/** Connects, writes the request head and `body` (all of it or part of it), and keeps the socket open. */
export async function rawRequest(origin: string, head: { method?: string; path: string; headers: Record<string, string> }, body: Buffer | string = ''): Promise<RawExchange> {
  const { hostname, port } = new URL(origin);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  let answeredAt: number | null = null;
  let closedAt: number | null = null;
  socket.on('data', (d: Buffer) => {
    answeredAt ??= Date.now();
    received += d.toString('latin1');
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => {
    closedAt = Date.now();
    resolve();
  }));
  const lines = [`${head.method ?? 'POST'} ${head.path} HTTP/1.1`, `Host: ${hostname}`, ...Object.entries(head.headers).map(([k, v]) => `${k}: ${v}`)];
  await new Promise<void>((resolve) => socket.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), Buffer.from(body)]), () => resolve()));
  const sentAt = Date.now();
  return {
    socket,
    async answer(waitMs) {
      await Promise.race([closed, new Promise((r) => setTimeout(r, waitMs))]);
      return {
        ...parse(received),
        answeredAfterMs: answeredAt === null ? null : answeredAt - sentAt,
        closedAfterMs: closedAt === null ? null : closedAt - sentAt,
      };
    },
  };
}

/** A multipart/form-data body with one file part, its closing boundary left off when `close` is false. */
export function multipartBody(boundary: string, file: Buffer | string, options: { filename?: string; close?: boolean } = {}): Buffer {
  const open = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.filename ?? 'overlay.geojson'}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  return Buffer.concat([Buffer.from(open), Buffer.from(file), Buffer.from(options.close === false ? '' : `\r\n--${boundary}--\r\n`)]);
}

/** This process's open file descriptors: how many, and those whose target contains `under`. */
export async function openDescriptors(under: string): Promise<{ count: number; matching: string[] }> {
  const fds = await readdir('/proc/self/fd');
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return { count: fds.length, matching: targets.filter((t) => t.includes(under)) };
}
