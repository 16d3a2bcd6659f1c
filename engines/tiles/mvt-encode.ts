import { PbfWriter } from 'pbf';
import { TILE_EXTENT } from './layer-spec.ts';
import type { CommandBuffer } from './tile-geometry.ts';
import type { TileFeature } from './tile-feature.ts';

/**
 * Mapbox Vector Tile 2.1 encoding of features whose geometry commands are already written
 * (tile-geometry.ts): one layer message per source layer with its keys and values tables, values
 * typed as vt-pbf types them (strings, doubles, signed and unsigned integers, booleans).
 */

export interface PlacedFeature {
  feature: TileFeature;
  /** Its commands: geometry.data[start, end). */
  start: number;
  end: number;
}

export interface TileLayerContent {
  name: string;
  features: readonly PlacedFeature[];
}

type Value = string | number | boolean;

interface LayerState {
  layer: TileLayerContent;
  geometry: CommandBuffer;
  keys: Map<string, number>;
  values: Map<Value, number>;
  placed: PlacedFeature | null;
}

export function propertiesOf(f: TileFeature): Record<string, Value> {
  return (f.parsed ??= JSON.parse(f.properties) as Record<string, Value>);
}

/** The writer's first buffer: most tiles fit, and it doubles from there (from pbf's 16 bytes, a 30 kB tile took 11 copies). */
const INITIAL_BYTES = 16 * 1024;

export function encodeMvt(layers: readonly TileLayerContent[], geometry: CommandBuffer): Uint8Array {
  const pbf = new PbfWriter(new Uint8Array(INITIAL_BYTES));
  for (const layer of layers) {
    if (layer.features.length === 0) continue;
    const state: LayerState = { layer, geometry, keys: new Map(), values: new Map(), placed: null };
    pbf.writeMessage(3, writeLayer, state);
  }
  return pbf.finish();
}

function writeLayer(state: LayerState, pbf: PbfWriter): void {
  pbf.writeVarintField(15, 2);
  pbf.writeStringField(1, state.layer.name);
  for (const placed of state.layer.features) {
    state.placed = placed;
    pbf.writeMessage(2, writeFeature, state);
  }
  for (const key of state.keys.keys()) pbf.writeStringField(3, key);
  for (const value of state.values.keys()) pbf.writeMessage(4, writeValue, value);
  pbf.writeVarintField(5, TILE_EXTENT);
}

function writeFeature(state: LayerState, pbf: PbfWriter): void {
  const { feature, start, end } = state.placed!;
  if (feature.id !== undefined) pbf.writeVarintField(1, feature.id);
  pbf.writeMessage(2, writeTags, state);
  pbf.writeVarintField(3, feature.type);
  pbf.writeMessage(4, writeCommands, { data: state.geometry.data, start, end });
}

function writeTags(state: LayerState, pbf: PbfWriter): void {
  const properties = propertiesOf(state.placed!.feature);
  const { keys, values } = state;
  for (const key in properties) {
    const value = properties[key]!;
    let k = keys.get(key);
    if (k === undefined) keys.set(key, (k = keys.size));
    // Values of different types never share an entry: 1 and "1" and true are distinct keys of the map.
    let v = values.get(value);
    if (v === undefined) values.set(value, (v = values.size));
    pbf.writeVarint(k);
    pbf.writeVarint(v);
  }
}

function writeCommands(range: { data: Uint32Array; start: number; end: number }, pbf: PbfWriter): void {
  const { data, end } = range;
  for (let i = range.start; i < end; i += 1) pbf.writeVarint(data[i]!);
}

function writeValue(value: Value, pbf: PbfWriter): void {
  if (typeof value === 'string') pbf.writeStringField(1, value);
  else if (typeof value === 'boolean') pbf.writeBooleanField(7, value);
  else if (!Number.isInteger(value)) pbf.writeDoubleField(3, value);
  else if (value < 0) pbf.writeSVarintField(6, value);
  else pbf.writeVarintField(5, value);
}
