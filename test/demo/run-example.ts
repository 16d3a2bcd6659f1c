import { parseCurlLine } from './curl-line.ts';

export interface ExampleAnswer {
  line: string;
  status: number;
  contentType: string;
  bytes: number;
  /** Why the answer counts as empty, or null when it carries data. */
  empty: string | null;
  /** The start of the body, to show in a failure. */
  excerpt: string;
  /** The body read as JSON, when it is JSON and shown. */
  json?: unknown;
}

/** The lines the demo prints under `try:`, as printed (leading indent removed). */
export function printedExamples(output: string): string[] {
  const start = output.indexOf('\ntry:\n');
  const end = output.indexOf('\nCtrl-C stops the demo.', start);
  if (start < 0 || end < 0) throw new Error(`no examples in the demo's output:\n${output}`);
  return output.slice(start + 6, end).split('\n').map((l) => l.trim()).filter(Boolean);
}

/** Why a JSON answer holds no data: an empty list, feature collection, `data` list, or object. */
function emptiness(body: unknown): string | null {
  if (Array.isArray(body)) {
    if (body.length === 0) return 'empty array';
    // A batch answers one list per query: each query must find something.
    const emptyItem = body.findIndex((item) => (Array.isArray(item) && item.length === 0) || (isRecord(item) && Array.isArray(item.results) && item.results.length === 0));
    return emptyItem >= 0 ? `item ${emptyItem} is empty` : null;
  }
  if (!isRecord(body)) return body === null || body === '' ? 'empty body' : null;
  for (const field of ['features', 'data', 'results', 'routes', 'layers']) {
    if (Array.isArray(body[field]) && (body[field] as unknown[]).length === 0) return `empty ${field}`;
  }
  return Object.keys(body).length === 0 ? 'empty object' : null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sends a printed curl line as curl would and judges the answer. */
export async function runCurlExample(line: string): Promise<ExampleAnswer> {
  const request = parseCurlLine(line);
  const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual' });
  const raw = Buffer.from(await res.arrayBuffer());
  const contentType = res.headers.get('content-type') ?? '';
  const json: unknown = !request.discardsBody && contentType.includes('json') ? JSON.parse(raw.toString('utf8')) : undefined;
  const empty = raw.length === 0 ? 'no bytes' : json === undefined ? null : emptiness(json);
  return { line, status: res.status, contentType, bytes: raw.length, empty, excerpt: raw.subarray(0, 300).toString('utf8'), json };
}
