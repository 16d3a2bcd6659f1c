/**
 * Load runs with wrk (Debian's package, a C load generator): a rotating list of GET and POST
 * requests over keep-alive connections, latency percentiles from wrk's own histogram. Where the
 * answers are binary, autocannon is not a fair client: it decodes every body into a string
 * (`req.body += data`), several hundred µs for a 32 kB gzip tile, so it becomes the bottleneck and
 * the server, left idle between requests, batches less and seems to cost more per answer.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { aptInstall, onPath } from './apt-tools.ts';

export interface WrkRequest {
  method: 'GET' | 'POST';
  /** Path and query. */
  path: string;
  /** A JSON body (sent with Content-Type: application/json). */
  body?: string;
}

export interface WrkResult {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers whose status is not 2xx or 3xx, and socket errors and timeouts. */
  non2xx3xx: number;
  socketErrors: number;
  meanBytes: number;
}

// Reads the request list (method, path, body separated by tabs, one per line) into formatted
// requests, sends them in turn from a per-thread offset, and prints the summary as one JSON line.
const SCRIPT = `
local list = {}
local at = 0
function init(args)
  for line in io.lines(args[1]) do
    local method, path, body = line:match("^(%u+)\\t([^\\t]*)\\t?(.*)$")
    local headers = {}
    if body ~= "" then headers["Content-Type"] = "application/json" else body = nil end
    list[#list + 1] = wrk.format(method, path, headers, body)
  end
  at = math.random(#list) - 1
end
function request()
  at = at % #list + 1
  return list[at]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"us":%d,"bytes":%d,"status":%d,"socket":%d,"p50":%d,"p95":%d,"p99":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
`;

/** Makes sure wrk is on PATH (apt-get install wrk when it is not); throws when it cannot be had. */
export function ensureWrk(): void {
  if (onPath('wrk')) return;
  const notes: string[] = [];
  aptInstall(['wrk'], notes);
  if (!onPath('wrk')) throw new Error(`wrk is needed for this benchmark:\n${notes.join('\n')}`);
}

export async function wrkLoad(requests: readonly WrkRequest[], options: { url: string; connections: number; seconds: number; threads?: number }): Promise<WrkResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-wrk-'));
  try {
    const list = path.join(dir, 'requests.tsv');
    const script = path.join(dir, 'rotate.lua');
    await writeFile(list, requests.map((r) => `${r.method}\t${r.path}\t${r.body ?? ''}\n`).join(''));
    await writeFile(script, SCRIPT);
    const threads = options.threads ?? 1;
    const child = spawn('wrk', [`-t${threads}`, `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s', '-s', script, options.url, '--', list], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const [code] = (await once(child, 'close')) as [number];
    const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
    if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${out}`);
    const r = JSON.parse(line) as { requests: number; us: number; bytes: number; status: number; socket: number; p50: number; p95: number; p99: number };
    return {
      requests: r.requests,
      rps: r.requests / (r.us / 1e6),
      p50: r.p50 / 1000,
      p95: r.p95 / 1000,
      p99: r.p99 / 1000,
      non2xx3xx: r.status,
      socketErrors: r.socket,
      meanBytes: r.bytes / Math.max(1, r.requests),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
