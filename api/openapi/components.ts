import type { TSchema } from '@sinclair/typebox';
import { ByodOverlay } from '../../schemas/byod-api.ts';
import { CatalogRow, LayerFeature } from '../../schemas/catalog-api.ts';
import { ErrorBody } from '../../schemas/common.ts';
import { GeocodeResult, PlaceRecord } from '../../schemas/geocoding-api.ts';
import { OptimizationErrorBody } from '../../schemas/optimization-api.ts';
import { RoadEvent, RoadEventsMeta } from '../../schemas/road-events-api.ts';
import { RouteWarning } from '../../schemas/routing-api.ts';
import { TileJson } from '../../schemas/tiles-api.ts';
import { Agency, Departure, NearbyStop, TransitRoute, Stop, TransitMeta } from '../../schemas/transit-api.ts';

type JsonSchema = Record<string, unknown>;

/**
 * The objects several answers share, published under components.schemas and referenced from
 * every operation that carries them. Matching is by content (the JSON of the TypeBox schema), so
 * a route needs no change to use a component; at the top of a response, a component matches
 * whatever description the status gives it (as every error status does with the error body).
 */
export const SHARED_SCHEMAS: Readonly<Record<string, TSchema>> = {
  Error: ErrorBody,
  GeocodeResult,
  Place: PlaceRecord,
  RoadEvent,
  RoadEventsMeta,
  TransitMeta,
  Agency,
  Stop,
  NearbyStop,
  TransitRoute,
  Departure,
  CatalogLayer: CatalogRow,
  LayerFeature,
  Overlay: ByodOverlay,
  TileJson,
  RouteWarning,
  OptimizationError: OptimizationErrorBody,
};

const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const withoutDescription = ({ description: _description, ...rest }: JsonSchema) => rest;
const byJson = new Map(Object.entries(SHARED_SCHEMAS).map(([name, schema]) => [JSON.stringify(schema), name]));

/** `schema` with every shared object replaced by a reference to its component (a new object; the route's schema is untouched). */
export function referenceShared(schema: unknown, top = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => referenceShared(item));
  if (typeof schema !== 'object' || schema === null) return schema;
  const object = schema as JsonSchema;
  const name = byJson.get(JSON.stringify(object));
  if (name) return refTo(name);
  // A status's own description names the response, so it stays beside the reference.
  const described = top ? byJson.get(JSON.stringify(withoutDescription(object))) : undefined;
  if (described) return { ...refTo(described), description: object.description };
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, referenceShared(value)]));
}

/** Each response of a route schema (`{status: schema}`) with shared objects referenced. */
export function referenceSharedResponses(response: JsonSchema | undefined): JsonSchema | undefined {
  if (!response) return response;
  return Object.fromEntries(Object.entries(response).map(([status, schema]) => [status, referenceShared(schema, true)]));
}

/** components.schemas: each shared object, referencing the others it holds. */
export function componentSchemas(): Record<string, unknown> {
  return Object.fromEntries(Object.entries(SHARED_SCHEMAS).map(([name, schema]) => {
    const { properties, ...rest } = schema as JsonSchema;
    return [name, properties === undefined ? rest : { ...rest, properties: referenceShared(properties) }];
  }));
}
