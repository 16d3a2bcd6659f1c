import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OPTIMIZATION } from '../../bin/demo/examples.ts';
import { parseCurlLine, type CurlRequest } from './curl-line.ts';
import { printedExamples } from './run-example.ts';

/*
 * What the server really answers, against what /openapi.json says it answers: for every request
 * `canmap demo` prints (its sample data covers each endpoint family) and a few refusals, the
 * status is documented for that operation, the content type is one the document lists for that
 * status, and a JSON body validates against the documented schema.
 */

type Media = { schema?: unknown };
type Response = { content?: Record<string, Media> };
type Operation = { operationId: string; responses: Record<string, Response>; parameters?: { name: string; in: string; required: boolean }[] };
type Doc = { paths: Record<string, Record<string, Operation>>; components: unknown };

let doc: Doc;
let requests: CurlRequest[];

/** The documented operation serving `pathname` (a fixed segment wins over a parameter). */
function operationFor(method: string, pathname: string): { path: string; op: Operation } | null {
  const candidates = Object.keys(doc.paths)
    .filter((p) => new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname))
    .filter((p) => doc.paths[p]![method.toLowerCase()])
    .sort((a, b) => a.split('{').length - b.split('{').length);
  return candidates[0] ? { path: candidates[0], op: doc.paths[candidates[0]]![method.toLowerCase()]! } : null;
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();
/** A validator of one documented schema, its #/components references resolved in the document. */
function validatorFor(key: string, schema: unknown): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ ...(schema as object), components: doc.components });
    validators.set(key, validate);
  }
  return validate;
}

/** The demo as its test file started it: the API's address, the printed key and everything printed. */
export interface StartedDemo {
  api: string;
  key: string;
  output: string;
}

/** Registers the checks of real answers against /openapi.json, on the demo `started` gives. */
export function describeAnswersAgainstOpenApi(started: () => StartedDemo): void {
  describe('real answers match /openapi.json', () => {
    beforeAll(async () => {
      const { api, key, output } = started();
      doc = await (await fetch(`${api}/openapi.json?key=${key}`)).json() as Doc;
      const auth = { authorization: `Bearer ${key}` };
      const json = { ...auth, 'content-type': 'application/json' };
      const extra = (method: 'GET' | 'POST', path: string, headers: Record<string, string> = auth, body?: string): CurlRequest =>
        ({ comment: '', method, url: `${api}${path}`, headers, body, discardsBody: false });
      requests = [
        // POST /mcp speaks JSON-RPC, not an OpenAPI operation: test/mcp/tools-vs-http.ts checks its answers.
        ...printedExamples(output).filter((l) => l.startsWith('curl ')).map(parseCurlLine)
          .filter((r) => new URL(r.url).pathname !== '/mcp').map((r) => ({ ...r, discardsBody: false })),
        extra('GET', '/tiles/14/x/5606'),
        extra('GET', '/geocode/search?limit=5'),
        extra('GET', '/transit/stops/no-such-stop'),
        extra('GET', '/layers/no-such-layer/10/187/342'),
        extra('GET', '/glyphs/Noto%20Sans%20Regular/0-255.pbf'),
        extra('GET', '/terrain/10/163/355.png'),
        extra('GET', '/byod'),
        extra('GET', '/places/search?q=Gare+Centrale'),
        extra('POST', '/v1/projects/demo:optimizeTours', json, JSON.stringify(DEMO_OPTIMIZATION)),
        extra('POST', '/projects/demo/locations/north:optimizeTours', json, JSON.stringify({ ...DEMO_OPTIMIZATION, solvingMode: 'VALIDATE_ONLY' })),
      ];
    });

    it('status, content type and JSON body, for every demo request and a few refusals', async () => {
      const wrong: string[] = [];
      const families = new Set<string>();
      for (const request of requests) {
        const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual' });
        const raw = Buffer.from(await res.arrayBuffer());
        const { pathname } = new URL(request.url);
        const at = `${request.method} ${pathname} → ${res.status}`;
        const found = operationFor(request.method, pathname);
        if (!found) {
          wrong.push(`${at}: no documented operation`);
          continue;
        }
        families.add(found.path.split('/')[1]!);
        const documented = found.op.responses[String(res.status)];
        if (!documented) {
          wrong.push(`${at}: status not documented for ${found.op.operationId}`);
          continue;
        }
        const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
        if (!documented.content) {
          if (raw.length > 0) wrong.push(`${at}: documented without a body, sent ${raw.length} bytes of ${type}`);
          continue;
        }
        const media = documented.content[type];
        if (!media) {
          wrong.push(`${at}: sent ${type}, documented ${Object.keys(documented.content).join(', ')}`);
          continue;
        }
        if (!type.endsWith('json') || !media.schema) continue;
        const validate = validatorFor(`${found.path} ${request.method} ${res.status} ${type}`, media.schema);
        if (!validate(JSON.parse(raw.toString('utf8')))) wrong.push(`${at}: body does not match: ${ajv.errorsText(validate.errors)}`);
      }
      expect(wrong).toEqual([]);
      // One request or more per endpoint family.
      expect([...families].sort()).toEqual(expect.arrayContaining(['closures', 'coverage.json', 'data', 'geocode', 'glyphs', 'identify', 'incidents', 'isochrone', 'layers', 'matrix', 'optimize', 'places', 'route', 'styles', 'terrain', 'tiles', 'transit', 'v1', 'projects', 'feedback', 'byod', 'openapi.json']));
    }, 180_000);

    it('a documented required query parameter is one the server requires: each left out of a request that succeeds answers 400', async () => {
      const checked: string[] = [];
      const wrong: string[] = [];
      for (const request of requests.filter((r) => r.method === 'GET')) {
        const url = new URL(request.url);
        const required = (operationFor('GET', url.pathname)?.op.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => p.name);
        if (required.length === 0 || (await fetch(url, { headers: request.headers })).status !== 200) continue;
        for (const name of required) {
          const without = new URL(url);
          without.searchParams.delete(name);
          const res = await fetch(without, { headers: request.headers });
          checked.push(`${url.pathname} ${name}`);
          if (res.status !== 400) wrong.push(`${url.pathname} without ${name} → ${res.status}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(checked).toEqual(expect.arrayContaining(['/geocode/search q', '/geocode/nearby category', '/data/query layer', '/data/query bbox', '/route from', '/route to', '/isochrone minutes', '/transit/stops near']));
    }, 120_000);
  });
}
