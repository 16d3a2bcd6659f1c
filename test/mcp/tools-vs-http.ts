import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, toolErrorOf } from '../support/mcp-client.ts';
import { MCP_CASES } from './cases/index.ts';
import type { McpCase } from './cases/case.ts';

async function httpAnswer(api: string, key: string, http: McpCase['http'], headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${api}${http.url}`, {
    method: http.method,
    headers: { authorization: `Bearer ${key}`, ...(http.body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: http.body === undefined ? undefined : JSON.stringify(http.body),
  });
  return { status: response.status, body: await response.json() };
}

/**
 * Every tool against the HTTP endpoint it stands for, on a running demo (`api`, `key`): the same
 * JSON for the same input, the same refusal for a bad one, and no tool without a case.
 */
export function describeToolsAgainstHttp(demo: () => { api: string; key: string }): void {
  describe('MCP tools answer as their HTTP endpoints', () => {
    const clients = new Map<string, Client>();
    const clientFor = async (headers: Record<string, string> = {}) => {
      const id = JSON.stringify(headers);
      if (!clients.has(id)) clients.set(id, await connectMcp(demo().api, demo().key, headers));
      return clients.get(id)!;
    };
    beforeAll(async () => {
      await clientFor();
    });
    afterAll(async () => {
      for (const client of clients.values()) await client.close();
    });

    it('every listed tool has a case', async () => {
      const { tools } = await (await clientFor()).listTools();
      const covered = new Set([...MCP_CASES.map((c) => c.tool), 'around_point']);
      expect(tools.map((t) => t.name).filter((name) => !covered.has(name))).toEqual([]);
    });

    it.each(MCP_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const { api, key } = demo();
      const result = await (await clientFor(c.headers)).callTool({ name: c.tool, arguments: c.args });
      const http = await httpAnswer(api, key, c.http, c.headers);
      const normalize = c.normalize ?? ((v: unknown) => v);
      if (c.refused !== undefined) {
        expect(http.status).toBe(c.refused);
        const { http_status: status, ...body } = toolErrorOf(result);
        expect(status).toBe(c.refused);
        expect(body).toEqual(http.body);
        return;
      }
      expect(http.status, JSON.stringify(http.body).slice(0, 300)).toBe(c.status ?? 200);
      expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
      const expected = c.wrap ? { [c.wrap]: http.body } : http.body;
      expect(normalize(result.structuredContent)).toEqual(normalize(expected));
    }, 60_000);

    it('resources: the layer catalog and transit coverage read as their endpoints answer; the style list\'s URLs open', async () => {
      const { api, key } = demo();
      const client = await clientFor();
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual(['canmap://catalog/layers', 'canmap://maps/styles', 'canmap://transit/coverage']);
      for (const [uri, url] of [['canmap://catalog/layers', '/layers'], ['canmap://transit/coverage', '/coverage.json']] as const) {
        const { contents } = await client.readResource({ uri });
        const http = await fetch(`${api}${url}`, { headers: { authorization: `Bearer ${key}` } });
        expect(contents[0]!.mimeType).toBe('application/json');
        expect((contents[0] as { text: string }).text).toBe(await http.text());
      }
      const { contents } = await client.readResource({ uri: 'canmap://maps/styles' });
      const list = JSON.parse((contents[0] as { text: string }).text) as { styles: { name: string; style_url: string }[] };
      expect(list.styles.length).toBeGreaterThan(20);
      const style = list.styles.find((s) => s.name === 'outdoor-dark')!;
      const answer = await fetch(style.style_url.replace('http://api.canmap.test', api).replace(/^http:\/\/localhost:\d+/, api));
      expect(answer.status).toBe(200);
      await expect(client.readResource({ uri: 'canmap://nothing' })).rejects.toThrow(/Resource not found/);
    });

    it('around_point: each part is what its endpoint answers for the same input, a refused part its refusal', async () => {
      const { api, key } = demo();
      const [lon, lat] = [-123.1175, 49.282];
      const AT = '2026-11-26T16:00:00Z';
      const result = await (await clientFor()).callTool({ name: 'around_point', arguments: { lon, lat, stops: 2, at: AT, departures_window: 120 } });
      expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
      const parts = result.structuredContent as Record<string, Record<string, unknown>>;
      const get = async (url: string) => httpAnswer(api, key, { method: 'GET', url });
      const expectPart = async (part: unknown, url: string, wrap?: string) => {
        const http = await get(url);
        if (http.status === 200) expect(part).toEqual(wrap ? { [wrap]: http.body } : http.body);
        else expect(part).toEqual({ refused: { http_status: http.status, ...(http.body as object) } });
      };
      await expectPart(parts.place, `/geocode/reverse?lon=${lon}&lat=${lat}&limit=1`, 'results');
      await expectPart(parts.areas, `/identify?at=${lon},${lat}`);
      await expectPart(parts.road_events, `/incidents?near=${lon},${lat}&radius=25000`);
      await expectPart(parts.elevation, `/elevation?at=${lon},${lat}`);
      const stops = await get(`/transit/stops?near=${lon},${lat}&radius=500&limit=2`);
      const { data, meta } = stops.body as { data: { id: string }[]; meta: unknown };
      expect(data.length).toBeGreaterThan(0);
      const transit = parts.transit as { stops: { stop: unknown; departures: unknown }[]; meta: unknown };
      expect(transit.meta).toEqual(meta);
      expect(transit.stops.map((s) => s.stop)).toEqual(data);
      for (const [i, stop] of data.entries()) {
        await expectPart(transit.stops[i]!.departures, `/transit/stops/${encodeURIComponent(stop.id)}/departures?at=${AT}&window=120`);
      }
      expect((parts.place as { results: unknown[] }).results.length).toBe(1);
    }, 60_000);
  });
}
