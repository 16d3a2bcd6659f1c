import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { mapStyleList } from '../../services/maps/style-urls.ts';
import { presentedKey } from '../access/credentials.ts';
import { refusalJson, refusalOf } from './tool-errors.ts';
import type { McpTool, ToolContext } from './tool.ts';
import { catalogTools } from './tools/catalog.ts';
import { toolNamed } from './tools/named.ts';
import { transitTools } from './tools/transit.ts';

const JSON_TYPE = 'application/json';

/**
 * JSON-RPC's implementation-defined server error (-32000..-32099), as the transport words its own
 * refusals: a read the gate or the endpoint refused, its HTTP status and body in `data`.
 */
const REFUSED = -32000;

/** The MCP specification's code for a resource URI the server does not have. */
const RESOURCE_NOT_FOUND = -32002;

interface ResourceSource {
  resource: Resource;
  /** The resource's JSON text. */
  read(context: ToolContext): Promise<string>;
}

/** A resource that stands for one GET endpoint: its tool's run (one call through the gate, metered as it), the endpoint's JSON text. */
function toolResource(resource: Resource, tool: McpTool): ResourceSource {
  return { resource, read: async (context) => (await tool.run({}, context)).text };
}

const SOURCES: ResourceSource[] = [
  toolResource({
    uri: 'canmap://catalog/layers',
    name: 'catalog-layers',
    title: 'Map catalog layers',
    description: 'Every catalog overlay layer (id, names, source, licence, coverage, add-on, archives): the same JSON as GET /layers, ' +
      'and one metered call of it. The ids are what identify and query_layer take.',
    mimeType: JSON_TYPE,
  }, toolNamed(catalogTools, 'list_layers')),
  toolResource({
    uri: 'canmap://transit/coverage',
    name: 'transit-coverage',
    title: 'Transit feed coverage',
    description: 'Every transit feed the enabled release assessed, included and refused, with licence, counts and service dates: ' +
      'the same JSON as GET /coverage.json, and one metered call of it.',
    mimeType: JSON_TYPE,
  }, toolNamed(transitTools, 'transit_coverage')),
  {
    resource: {
      uri: 'canmap://maps/styles',
      name: 'map-styles',
      title: 'Map style names and URLs',
      description: 'Every style name GET /styles/{style}.json answers, each with its style document URL (the caller\'s key embedded), ' +
        'and the basemap\'s TileJSON and tile URLs. Made here, not an endpoint call: rate-limited, not metered.',
      mimeType: JSON_TYPE,
    },
    read: async ({ app, request, gate }) => {
      await gate.slot();
      return JSON.stringify(mapStyleList({ baseUrl: app.config.baseUrl, key: presentedKey(request) ?? '' }));
    },
  },
];

export const RESOURCES: Resource[] = SOURCES.map((source) => source.resource);

const byUri = new Map(SOURCES.map((source) => [source.resource.uri, source]));

export async function readResource(uri: string, context: ToolContext): Promise<ReadResourceResult> {
  const source = byUri.get(uri);
  if (source === undefined) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 200)} (resources/list names them)`, { uri: uri.slice(0, 200) });
  let text: string;
  try {
    text = await source.read(context);
  } catch (err) {
    const refusal = refusalOf(err, context.request.log);
    const body = refusal.body();
    throw new McpError(REFUSED, typeof body === 'string' ? body : refusal.message, refusalJson(refusal));
  }
  return { contents: [{ uri, mimeType: JSON_TYPE, text }] };
}
