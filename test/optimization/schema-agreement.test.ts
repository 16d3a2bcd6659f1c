/**
 * The request schema (schemas/optimization-api.ts, what /openapi.json documents) and the checker
 * (engines/optimization/request/) must agree, field by field. The route does not validate with the
 * schema (the checker reports every issue in the format's own shape), so nothing else would notice
 * a field documented but refused, or read but undocumented.
 */
import type { TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OptimizationRequestBody } from '../../schemas/optimization-api.ts';
import { checkOptimizationRequest } from '../../engines/optimization/request/check.ts';
import { MESSAGES, type FieldKind, type MessageName } from '../../engines/optimization/request/fields.ts';
import { Reader } from '../../engines/optimization/request/reader.ts';
import { baseRequest, matrixRequest } from './request-fixtures.ts';

type Schema = TSchema & Record<string, any>;
type Segment = { key: string } | { index: 0 } | { mapKey: string };

/** One documented leaf: its field path without indices or map keys, and where to put a value. */
interface Leaf {
  field: string;
  segments: Segment[];
  /** A sample of each JSON type the schema allows there. */
  samples: unknown[];
}

/** The load type name of the fixtures, so samples land in maps the checker already walks. */
const MAP_KEY = 'weight';
const normalized = (path: string) => path.replace(/\[[^\]]*\]/g, '');

function samplesOf(schema: Schema): unknown[] {
  if (schema.anyOf) return (schema.anyOf as Schema[]).flatMap(samplesOf);
  switch (schema.type) {
    case 'string': return ['1'];
    case 'integer': return [1];
    case 'number': return [1.5];
    case 'boolean': return [true];
    case 'array': return samplesOf(schema.items).map((item) => [item]);
    case 'object': return [Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, samplesOf(v as Schema)[0]]))];
    default: throw new Error(`no sample for schema ${JSON.stringify(schema)}`);
  }
}

/** The message a schema object documents, by the checker's field table; problems where they disagree on shape. */
function walk(schema: Schema, message: MessageName, field: string, segments: Segment[], leaves: Leaf[], problems: string[]): void {
  for (const [key, child] of Object.entries(schema.properties ?? {}) as [string, Schema][]) {
    const path = field ? `${field}.${key}` : key;
    const at = [...segments, { key }];
    const kind: FieldKind | undefined = Object.prototype.hasOwnProperty.call(MESSAGES[message], key) ? MESSAGES[message][key] : undefined;
    if (kind === undefined) {
      problems.push(`${path}: documented, but not a field the checker knows`);
    } else if (kind === 'opaque') {
      problems.push(`${path}: documented, but the checker refuses it unread`);
    } else if (kind === 'scalar') {
      if (child.type === 'object' && child.properties) problems.push(`${path}: documented as a message, read as a value`);
      else leaves.push({ field: path, segments: at, samples: samplesOf(child) });
    } else if ('message' in kind) {
      if (child.type !== 'object' || !child.properties) problems.push(`${path}: documented as a value, read as message ${kind.message}`);
      else walk(child, kind.message, path, at, leaves, problems);
    } else if ('list' in kind) {
      if (child.type !== 'array' || child.items?.type !== 'object') problems.push(`${path}: documented as no list of messages, read as a list of ${kind.list}`);
      else walk(child.items, kind.list, path, [...at, { index: 0 }], leaves, problems);
    } else {
      const value = Object.values(child.patternProperties ?? {})[0] as Schema | undefined;
      if (child.type !== 'object' || value?.type !== 'object') problems.push(`${path}: documented as no map of messages, read as a map of ${kind.map}`);
      else walk(value, kind.map, path, [...at, { mapKey: MAP_KEY }], leaves, problems);
    }
  }
}

/** The body with `value` at the leaf, creating the objects, lists and map entries above it. */
function withValue(body: Record<string, unknown>, segments: Segment[], value: unknown): Record<string, unknown> {
  let node: any = body;
  segments.forEach((segment, i) => {
    const name = 'key' in segment ? segment.key : 'mapKey' in segment ? segment.mapKey : 0;
    // A waypoint stands in for its LatLng field (arrivalWaypoint for arrivalLocation): both at once is a conflict.
    if ('key' in segment && segment.key.endsWith('Waypoint')) delete node[segment.key.replace(/Waypoint$/, 'Location')];
    if (i === segments.length - 1) {
      node[name] = value;
      return;
    }
    const next = segments[i + 1]!;
    if (node[name] === undefined || node[name] === null || typeof node[name] !== 'object') node[name] = 'index' in next ? [{}] : {};
    else if ('index' in next && node[name].length === 0) node[name].push({});
    node = node[name];
  });
  return body;
}

/** Every field the Reader is asked for while `run` checks bodies (normalized paths), apart from refusals. */
const READERS = ['message', 'list', 'map', 'string', 'strings', 'boolean', 'double', 'int32', 'int64', 'duration', 'timestamp', 'enumeration', 'messages'] as const;
const reads = new Set<string>();
const refused = new Set<string>();
const originals = new Map<string, unknown>();
const proto = Reader.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;

beforeAll(() => {
  for (const name of [...READERS, 'refuse'] as const) {
    const original = proto[name]!;
    originals.set(name, original);
    proto[name] = function (this: Reader, msg: unknown, key: unknown, path: unknown, ...rest: unknown[]) {
      const field = normalized(path ? `${String(path)}.${String(key)}` : String(key));
      (name === 'refuse' ? refused : reads).add(field);
      return original.call(this, msg, key, path, ...rest);
    };
  }
});
afterAll(() => {
  for (const [name, original] of originals) proto[name] = original as (...args: unknown[]) => unknown;
});

const TYPE_ISSUES = new Set(['INVALID_TYPE', 'UNKNOWN_FIELD']);

describe('the request schema and the checker', () => {
  const leaves: Leaf[] = [];
  const problems: string[] = [];
  walk(OptimizationRequestBody as Schema, 'Request', '', [], leaves, problems);

  it('documents only fields the checker reads, with the same nesting', () => {
    expect(leaves.length).toBeGreaterThan(80);
    expect(problems).toEqual([]);
  });

  it('accepts every documented field with each type the schema documents for it', () => {
    const refusedTypes: string[] = [];
    const unread: string[] = [];
    for (const leaf of leaves) {
      for (const sample of leaf.samples) {
        reads.clear();
        const body = withValue(leaf.field.startsWith('model.durationDistanceMatri') ? matrixRequest() : baseRequest(), leaf.segments, sample);
        body.maxValidationErrors ??= 1000;
        const concrete = leaf.segments.map((s) => ('key' in s ? `.${s.key}` : 'mapKey' in s ? `[${JSON.stringify(s.mapKey)}]` : '[0]')).join('').slice(1);
        const result = checkOptimizationRequest(body);
        for (const issue of result.issues) {
          const name = issue.fields[0]!.name;
          const under = name === concrete || name.startsWith(`${concrete}.`) || name.startsWith(`${concrete}[`);
          if (under && TYPE_ISSUES.has(issue.displayName)) refusedTypes.push(`${leaf.field} = ${JSON.stringify(sample)}: ${issue.displayName} ${issue.errorMessage}`);
        }
        const named = result.issues.some((issue) => normalized(issue.fields[0]!.name) === leaf.field);
        if (!reads.has(leaf.field) && !refused.has(leaf.field) && !named) unread.push(leaf.field);
      }
    }
    expect(refusedTypes).toEqual([]);
    expect([...new Set(unread)]).toEqual([]);
  });

  it('documents every field the checker reads into the request', () => {
    reads.clear();
    refused.clear();
    // Each documented leaf in turn: every message the schema documents is walked by the checker.
    for (const leaf of leaves) {
      checkOptimizationRequest({ ...withValue(leaf.field.startsWith('model.durationDistanceMatri') ? matrixRequest() : baseRequest(), leaf.segments, leaf.samples[0]), maxValidationErrors: 1000 });
    }
    const documented = new Set(leaves.map((l) => l.field));
    const containers = new Set(leaves.flatMap((l) => l.field.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))));
    const undocumented = [...reads].filter((field) => !documented.has(field) && !containers.has(field) && !refused.has(field)).sort();
    expect(undocumented).toEqual([]);
  });
});
