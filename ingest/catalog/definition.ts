import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { catalogLayerCapability } from '../../engines/access/capability-rules.ts';
import { ADDON_OF_CAPABILITY } from '../../engines/access/plans.ts';
import { RETIRED_LAYERS } from '../../engines/catalog/retired.ts';
import { CatalogDefinition, type LayerDefinition } from '../../schemas/catalog-definition.ts';
import { InvalidInputError } from '../errors.ts';

/** A checked definition with every input path made absolute (relative to the definition file). */
export interface LoadedDefinition {
  file: string;
  text: string;
  definition: CatalogDefinition;
}

function schemaError(file: string, value: unknown): string | null {
  const error = Value.Errors(CatalogDefinition, value).First();
  if (!error) return null;
  const got = error.value === undefined ? 'missing' : `got ${JSON.stringify(error.value)?.slice(0, 80)}`;
  return `catalog definition ${file}: ${error.path || '/'}: ${error.message} (${got})`;
}

function checkLayer(layer: LayerDefinition, label: string): void {
  if (RETIRED_LAYERS.has(layer.id)) throw new InvalidInputError(`${label}: ${layer.id} is a retired layer and cannot be catalogued`);
  const capability = catalogLayerCapability(layer.id);
  const addon = capability ? ADDON_OF_CAPABILITY[capability] : 'core';
  if (layer.addon !== addon) {
    throw new InvalidInputError(`${label}: addon is ${JSON.stringify(layer.addon)} but the access table gates ${layer.id} with ${JSON.stringify(addon)}`);
  }
  const seen = new Set<string>();
  for (const source of layer.source_layers) {
    if (source.minzoom > source.maxzoom) throw new InvalidInputError(`${label}, source layer ${source.id}: minzoom ${source.minzoom} is above maxzoom ${source.maxzoom}`);
    if (seen.has(source.id)) throw new InvalidInputError(`${label}: source layer ${source.id} appears twice`);
    seen.add(source.id);
  }
  if ((layer.identify || layer.query) && layer.source_layers.length === 0) {
    throw new InvalidInputError(`${label}: an identify-capable or queryable layer needs at least one source layer with an input`);
  }
}

async function readable(file: string, label: string): Promise<string> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new InvalidInputError(`${label}: ${file} is not a readable file`);
  return file;
}

/** Reads and checks a definition file; input paths become absolute and must exist. */
export async function loadDefinition(file: string): Promise<LoadedDefinition> {
  const absolute = path.resolve(file);
  const text = await readFile(absolute, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new InvalidInputError(`catalog definition ${absolute} cannot be read (${err.code ?? err.message})`);
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new InvalidInputError(`catalog definition ${absolute} is not valid JSON: ${(err as Error).message}`);
  }
  const problem = schemaError(absolute, parsed);
  if (problem) throw new InvalidInputError(problem);
  const definition = parsed as CatalogDefinition;
  const folder = path.dirname(absolute);
  const ids = new Set<string>();
  for (const layer of definition.layers) {
    const label = `catalog definition ${absolute}, layer ${layer.id}`;
    if (ids.has(layer.id)) throw new InvalidInputError(`${label}: the id appears twice`);
    ids.add(layer.id);
    checkLayer(layer, label);
    for (const source of layer.source_layers) {
      if ('path' in source.input) source.input.path = await readable(path.resolve(folder, source.input.path), `${label}, source layer ${source.id}`);
    }
  }
  if (definition.provinces) definition.provinces = await readable(path.resolve(folder, definition.provinces), `catalog definition ${absolute}, provinces`);
  return { file: absolute, text, definition };
}
