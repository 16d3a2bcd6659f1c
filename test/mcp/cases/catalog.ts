import type { McpCase } from './case.ts';

/** The demo's dev plan serves add-on layers to dev origins only. */
const DEV_ORIGIN = { origin: 'http://localhost:5173' };
const CALGARY = '-114.0719,51.0447';

export const catalogCases: McpCase[] = [
  {
    name: 'list_layers: the whole catalog',
    tool: 'list_layers',
    args: {},
    http: { method: 'GET', url: '/layers' },
    wrap: 'layers',
  },
  {
    name: 'identify: the municipality at a point (default layer)',
    tool: 'identify',
    args: { at: '-73.60,45.485' },
    http: { method: 'GET', url: '/identify?at=-73.60,45.485' },
  },
  {
    name: 'identify: lon and lat with geometry',
    tool: 'identify',
    args: { lon: '-73.60', lat: '45.485', layers: 'municipalities', geometry: 'true' },
    http: { method: 'GET', url: '/identify?lon=-73.60&lat=45.485&layers=municipalities&geometry=true' },
  },
  {
    name: 'identify: a longitude out of range is the same 400',
    tool: 'identify',
    args: { at: '200,1' },
    http: { method: 'GET', url: '/identify?at=200,1' },
    refused: 400,
  },
  {
    name: 'identify: an unknown layer is the same 400',
    tool: 'identify',
    args: { at: '-73.60,45.485', layers: 'nope' },
    http: { method: 'GET', url: '/identify?at=-73.60,45.485&layers=nope' },
    refused: 400,
  },
  {
    name: 'identify: a survey layer is refused without a dev origin on the dev plan',
    tool: 'identify',
    args: { at: CALGARY, layers: 'survey.dls' },
    http: { method: 'GET', url: `/identify?at=${CALGARY}&layers=survey.dls` },
    refused: 403,
  },
  {
    name: 'identify: a survey layer from a dev origin (DLS township, section, quarter)',
    tool: 'identify',
    args: { at: CALGARY, layers: 'survey.dls,municipalities' },
    http: { method: 'GET', url: `/identify?at=${CALGARY}&layers=survey.dls,municipalities` },
    headers: DEV_ORIGIN,
  },
  {
    name: 'query_layer: municipalities in a box',
    tool: 'query_layer',
    args: { layer: 'municipalities', bbox: '-74,45,-73,46', limit: '2' },
    http: { method: 'GET', url: '/data/query?layer=municipalities&bbox=-74,45,-73,46&limit=2' },
  },
  {
    name: 'query_layer: wells from a dev origin',
    tool: 'query_layer',
    args: { layer: 'energy.wells', bbox: '-115,52,-114,53', limit: '3' },
    http: { method: 'GET', url: '/data/query?layer=energy.wells&bbox=-115,52,-114,53&limit=3' },
    headers: DEV_ORIGIN,
  },
  {
    name: 'query_layer: a three-number bbox is the same 400',
    tool: 'query_layer',
    args: { layer: 'municipalities', bbox: '1,2,3' },
    http: { method: 'GET', url: '/data/query?layer=municipalities&bbox=1,2,3' },
    refused: 400,
  },
  {
    name: 'query_layer: a limit above 50 is the same 400',
    tool: 'query_layer',
    args: { layer: 'municipalities', bbox: '-74,45,-73,46', limit: '51' },
    http: { method: 'GET', url: '/data/query?layer=municipalities&bbox=-74,45,-73,46&limit=51' },
    refused: 400,
  },
  {
    name: 'query_layer: a tile-only layer is the same 501',
    tool: 'query_layer',
    args: { layer: 'parks', bbox: '-74,45,-73,46' },
    http: { method: 'GET', url: '/data/query?layer=parks&bbox=-74,45,-73,46' },
    refused: 501,
  },
];
