/**
 * Typed reads of one field of a normalized message: the value, or undefined after recording the
 * issue under the field's path. Proto3 JSON reads null as "not set", so null is treated as absent.
 */
import { fieldPath } from './fields.ts';
import { Issues, type IssueName } from './issues.ts';
import { isRecord } from './normalize.ts';
import { parseBoolean, parseDouble, parseDuration, parseEnum, parseInt32, parseInt64, parseTimestamp, type ParsedValue } from './values.ts';

export type Message = Record<string, unknown>;

export const present = (msg: Message, key: string): boolean => msg[key] !== undefined && msg[key] !== null;

/** Set to something other than its proto3 default (false, 0, "", [], {}): what a refusal looks at. */
export function isSet(msg: Message, key: string): boolean {
  const v = msg[key];
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isRecord(v)) return Object.keys(v).length > 0;
  return true;
}

export interface NumberBounds {
  /** Negative values are refused (INVALID_VALUE). */
  nonNegative?: boolean;
}

export class Reader {
  constructor(readonly issues: Issues) {}

  issue(name: IssueName, path: string, message: string): void {
    this.issues.add(name, path, message);
  }

  private parsed<T>(msg: Message, key: string, path: string, parse: (v: unknown) => ParsedValue<T>): T | undefined {
    if (!present(msg, key)) return undefined;
    const result = parse(msg[key]);
    if (result.ok) return result.value;
    this.issue(result.issue, fieldPath(path, key), `${key} ${result.message}`);
    return undefined;
  }

  private signed(value: number | undefined, key: string, path: string, bounds: NumberBounds): number | undefined {
    if (value !== undefined && bounds.nonNegative && value < 0) {
      this.issue('INVALID_VALUE', fieldPath(path, key), `${key} must not be negative`);
      return undefined;
    }
    return value;
  }

  message(msg: Message, key: string, path: string): Message | undefined {
    if (!present(msg, key)) return undefined;
    const v = msg[key];
    if (isRecord(v)) return v;
    this.issue('INVALID_TYPE', fieldPath(path, key), `${key} must be an object`);
    return undefined;
  }

  /** A repeated field: [] when absent. */
  list(msg: Message, key: string, path: string): unknown[] {
    if (!present(msg, key)) return [];
    const v = msg[key];
    if (Array.isArray(v)) return v;
    this.issue('INVALID_TYPE', fieldPath(path, key), `${key} must be an array`);
    return [];
  }

  /** A map field: {} when absent. */
  map(msg: Message, key: string, path: string): Message {
    return this.message(msg, key, path) ?? {};
  }

  string(msg: Message, key: string, path: string): string | undefined {
    if (!present(msg, key)) return undefined;
    const v = msg[key];
    if (typeof v === 'string') return v;
    this.issue('INVALID_TYPE', fieldPath(path, key), `${key} must be a string`);
    return undefined;
  }

  /** A repeated string field (tags): [] when absent; empty or repeated strings are refused. */
  strings(msg: Message, key: string, path: string): string[] {
    const out: string[] = [];
    this.list(msg, key, path).forEach((v, i) => {
      const at = `${fieldPath(path, key)}[${i}]`;
      if (typeof v !== 'string') this.issue('INVALID_TYPE', at, `${key} must hold strings`);
      else if (v === '') this.issue('INVALID_VALUE', at, `${key} must not hold empty strings`);
      else if (out.includes(v)) this.issue('DUPLICATE_VALUE', at, `${key} holds "${v}" twice`);
      else out.push(v);
    });
    return out;
  }

  boolean(msg: Message, key: string, path: string): boolean | undefined {
    return this.parsed(msg, key, path, parseBoolean);
  }

  double(msg: Message, key: string, path: string, bounds: NumberBounds = {}): number | undefined {
    return this.signed(this.parsed(msg, key, path, parseDouble), key, path, bounds);
  }

  int32(msg: Message, key: string, path: string, bounds: NumberBounds = {}): number | undefined {
    return this.signed(this.parsed(msg, key, path, parseInt32), key, path, bounds);
  }

  int64(msg: Message, key: string, path: string, bounds: NumberBounds = {}): number | undefined {
    return this.signed(this.parsed(msg, key, path, parseInt64), key, path, bounds);
  }

  /** Seconds; durations of this format are never negative. */
  duration(msg: Message, key: string, path: string): number | undefined {
    return this.signed(this.parsed(msg, key, path, parseDuration), key, path, { nonNegative: true });
  }

  timestamp(msg: Message, key: string, path: string): number | undefined {
    return this.parsed(msg, key, path, parseTimestamp);
  }

  enumeration<T extends string>(msg: Message, key: string, path: string, names: readonly T[]): T | undefined {
    return this.parsed(msg, key, path, (v) => parseEnum(v, names));
  }

  /** Records `name` when the field is set (see isSet); true when it was. */
  refuse(msg: Message, key: string, path: string, name: IssueName, why: string): boolean {
    if (!isSet(msg, key)) return false;
    this.issue(name, fieldPath(path, key), `${key}: ${why}`);
    return true;
  }

  /** Each element of a repeated message field that is an object, with its index. */
  messages(msg: Message, key: string, path: string): { item: Message; index: number; path: string }[] {
    const out: { item: Message; index: number; path: string }[] = [];
    this.list(msg, key, path).forEach((v, index) => {
      const at = `${fieldPath(path, key)}[${index}]`;
      if (isRecord(v)) out.push({ item: v, index, path: at });
      else this.issue('INVALID_TYPE', at, `${key} must hold objects`);
    });
    return out;
  }
}
