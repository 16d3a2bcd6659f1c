/**
 * One walk over the body that renames every known message field to its camelCase name, leaves
 * map keys (load type names) and values alone, and notes unknown fields and fields spelt both
 * ways. The input is not modified.
 */
import { MESSAGES, camelCase, fieldPath, indexPath, keyPath, type FieldKind, type MessageName } from './fields.ts';

export interface Normalized {
  body: unknown;
  /** Paths (camelCase) of fields that no message of the format has. */
  unknownFields: string[];
  /** Paths of fields given under both spellings (for example time_windows and timeWindows). */
  duplicateFields: string[];
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets an own property even for names such as `__proto__`. */
export function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function normalizeRequest(raw: unknown): Normalized {
  const out: Normalized = { body: raw, unknownFields: [], duplicateFields: [] };
  out.body = normalizeMessage(raw, 'Request', '', out);
  return out;
}

function normalizeMessage(value: unknown, name: MessageName, path: string, out: Normalized): unknown {
  if (!isRecord(value)) return value;
  const fields = MESSAGES[name];
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const camel = camelCase(key);
    const childPath = fieldPath(path, camel);
    if (Object.prototype.hasOwnProperty.call(result, camel)) {
      out.duplicateFields.push(childPath);
      continue;
    }
    const kind = Object.prototype.hasOwnProperty.call(fields, camel) ? fields[camel] : undefined;
    if (kind === undefined) out.unknownFields.push(childPath);
    put(result, camel, kind === undefined ? child : normalizeField(child, kind, childPath, out));
  }
  return result;
}

function normalizeField(value: unknown, kind: FieldKind, path: string, out: Normalized): unknown {
  if (kind === 'scalar' || kind === 'opaque') return value;
  if ('message' in kind) return normalizeMessage(value, kind.message, path, out);
  if ('list' in kind) {
    return Array.isArray(value) ? value.map((item, i) => normalizeMessage(item, kind.list, indexPath(path, i), out)) : value;
  }
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) put(result, key, normalizeMessage(child, kind.map, keyPath(path, key), out));
  return result;
}
