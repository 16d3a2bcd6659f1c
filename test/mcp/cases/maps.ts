import type { McpCase } from './case.ts';

export const mapsCases: McpCase[] = [
  {
    name: 'elevation: one point (at)',
    tool: 'elevation',
    args: { at: '-124.3,48.5' },
    http: { method: 'GET', url: '/elevation?at=-124.3,48.5' },
  },
  {
    name: 'elevation: one point (lon and lat)',
    tool: 'elevation',
    args: { lon: '-124.3', lat: '48.5' },
    http: { method: 'GET', url: '/elevation?lon=-124.3&lat=48.5' },
  },
  {
    name: 'elevation: a profile sampled at 5 points',
    tool: 'elevation',
    args: { path: '-124.4,48.45;-124.3,48.5', samples: '5' },
    http: { method: 'GET', url: '/elevation?path=-124.4,48.45;-124.3,48.5&samples=5' },
  },
  {
    name: 'elevation: a malformed point is the same 400',
    tool: 'elevation',
    args: { at: 'abc' },
    http: { method: 'GET', url: '/elevation?at=abc' },
    refused: 400,
  },
  {
    name: 'elevation: samples without a path is the same 400',
    tool: 'elevation',
    args: { at: '-124.3,48.5', samples: '5' },
    http: { method: 'GET', url: '/elevation?at=-124.3,48.5&samples=5' },
    refused: 400,
  },
  // map_style_url makes URLs and calls no endpoint: only its refusals have an HTTP twin (GET /styles refuses the same way).
  {
    name: 'map_style_url: an unknown style is the 404 of GET /styles',
    tool: 'map_style_url',
    args: { file: 'nope.json' },
    http: { method: 'GET', url: '/styles/nope.json' },
    refused: 404,
  },
  {
    name: 'map_style_url: a file without .json is the 404 of GET /styles',
    tool: 'map_style_url',
    args: { file: 'base-dark' },
    http: { method: 'GET', url: '/styles/base-dark' },
    refused: 404,
  },
  {
    name: 'map_style_url: a theme code that does not decode is the 400 of GET /styles',
    tool: 'map_style_url',
    args: { file: 'base.json', theme: 'u999' },
    http: { method: 'GET', url: '/styles/base.json?theme=u999' },
    refused: 400,
  },
];
