import { CatalogRows, DataQueryQuery, DataQueryResponse, IdentifyQuery, IdentifyResponse } from '../../../schemas/catalog-api.ts';
import { identifyAt } from '../../routes/catalog/identify.ts';
import { queryLayer } from '../../routes/catalog/query.ts';
import { endpointTool } from '../endpoint-tool.ts';
import type { McpTool } from '../tool.ts';

const PREMIUM = 'Premium layers need their add-on, named by the catalog row\'s addon (core: every plan): e.g. survey.dls and ' +
  'survey.nts legal-land, survey.parcels agriculture, energy.wells energy; a layer the key\'s plan lacks is a 403 addon_required.';

export const catalogTools: McpTool[] = [
  endpointTool({
    name: 'list_layers',
    title: 'List the map catalog layers',
    description: 'The layer catalog: every overlay layer (municipalities, parks, Indigenous lands, survey grids, parcels, wells, ' +
      'mineral tenure, airports...) with its id, English and French names, source, licence, attribution, coverage, known gaps, ' +
      'the add-on gating it (addon: core is every plan) and its tile archives with zooms. Use the ids with identify and query_layer. ' +
      'No arguments. Example: {}. One call of GET /layers.',
    method: 'GET',
    route: '/layers',
    response: CatalogRows,
    wrap: 'layers',
    answer: async (_input, { app }) => ({ value: await app.services.catalog.rows() }),
  }),
  endpointTool({
    name: 'identify',
    title: 'Which polygons contain a point',
    description: 'The polygons of catalog layers that contain a point (exact point-in-polygon; a point on an edge is inside): ' +
      'the municipality, a Dominion Land Survey township / section / quarter, an NTS sheet, a parcel, a mineral tenure. Not ' +
      'reverse geocoding (no addresses). at is "lng,lat" (longitude first, WGS84), or give lon and lat. layers is a comma list of ' +
      'identify-capable layer ids (default municipalities; see list_layers). geometry "true" adds each polygon as GeoJSON. ' +
      `${PREMIUM} Example: {"at": "-73.60,45.485", "layers": "municipalities"}. One call of GET /identify.`,
    method: 'GET',
    route: '/identify',
    query: IdentifyQuery,
    response: IdentifyResponse,
    answer: async (input, { app }) => ({ value: await identifyAt(app.services, input.query as IdentifyQuery) }),
  }),
  endpointTool({
    name: 'query_layer',
    title: 'Features of a layer in a box',
    description: 'The features of one queryable catalog layer whose geometry meets a box (exactly, not only their bounding boxes), ' +
      'in the release\'s order: e.g. the wells, airports, municipalities or parcels in an area, each with its id, name, province and ' +
      'the layer\'s fields. layer is one layer id (see list_layers; tile-only layers answer 501 listing the queryable ones); bbox is ' +
      '"west,south,east,north" in degrees (longitude first); limit 1-50 (default 50); geometry "true" adds GeoJSON geometries. ' +
      `${PREMIUM} Example: {"layer": "municipalities", "bbox": "-74,45,-73,46", "limit": "5"}. One call of GET /data/query.`,
    method: 'GET',
    route: '/data/query',
    query: DataQueryQuery,
    response: DataQueryResponse,
    answer: async (input, { app }) => ({ value: await queryLayer(app.services, input.query as DataQueryQuery) }),
  }),
];
