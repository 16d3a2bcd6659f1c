import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigVariables } from '../schemas/config.ts';

/**
 * The configuration table of docs/operations.md, generated from the config schema so the manual
 * and the code cannot disagree. Run as a script it rewrites the table between the markers:
 *   node --import tsx bin/docs-config.ts
 */

export const CONFIG_TABLE_START = '<!-- config-table:start -->';
export const CONFIG_TABLE_END = '<!-- config-table:end -->';
export const OPERATIONS_DOC = path.resolve(import.meta.dirname, '..', 'docs', 'operations.md');

/** Only the parts of a variable's schema the table shows; anything else it may carry is ignored. */
interface DocumentedSchema {
  default?: unknown;
  description?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  anyOf?: unknown;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

const number = (value: number): string => value.toLocaleString('en-US');

function defaultCell(schema: DocumentedSchema): string {
  if (schema.default === undefined || schema.default === '') return '—';
  return `\`${String(schema.default)}\``;
}

/** The literals of a Union of Literals (`anyOf: [{const: 'a'}, …]`), or null for any other schema. */
function literals(schema: DocumentedSchema): string[] | null {
  if (!Array.isArray(schema.anyOf)) return null;
  const values = schema.anyOf.map((member: unknown) =>
    member !== null && typeof member === 'object' && 'const' in member ? String((member as { const: unknown }).const) : null);
  return values.every((v) => v !== null) ? (values as string[]) : null;
}

function allowedCell(schema: DocumentedSchema): string {
  const values = literals(schema);
  if (values) return values.map((v) => `\`${v}\``).join(', ');
  const min = typeof schema.minimum === 'number' ? schema.minimum : null;
  const max = typeof schema.maximum === 'number' ? schema.maximum : null;
  if (min !== null && max !== null) return `${number(min)}–${number(max)}`;
  if (min !== null) return `≥ ${number(min)}`;
  if (max !== null) return `≤ ${number(max)}`;
  return '';
}

/** The markdown table: one row per variable, in the order the schema declares them. */
export function configTable(): string {
  const rows = Object.entries(ConfigVariables as Record<string, DocumentedSchema>).map(([name, schema]) => {
    const meaning = typeof schema.description === 'string' ? schema.description : '';
    return `| \`${name}\` | ${cell(defaultCell(schema))} | ${cell(allowedCell(schema))} | ${cell(meaning)} |`;
  });
  return ['| variable | default | allowed | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The text between the markers (trimmed), or null when a marker is missing. */
export function tableBetweenMarkers(markdown: string): string | null {
  const start = markdown.indexOf(CONFIG_TABLE_START);
  const end = markdown.indexOf(CONFIG_TABLE_END);
  if (start < 0 || end < start) return null;
  return markdown.slice(start + CONFIG_TABLE_START.length, end).trim();
}

/** The markdown with the text between the markers replaced by `table`. */
export function withConfigTable(markdown: string, table: string): string {
  const start = markdown.indexOf(CONFIG_TABLE_START);
  const end = markdown.indexOf(CONFIG_TABLE_END);
  if (start < 0 || end < start) throw new Error(`${CONFIG_TABLE_START} … ${CONFIG_TABLE_END} not found`);
  return `${markdown.slice(0, start + CONFIG_TABLE_START.length)}\n${table}\n${markdown.slice(end)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const before = readFileSync(OPERATIONS_DOC, 'utf8');
  const after = withConfigTable(before, configTable());
  if (after === before) {
    console.log(`${path.relative(process.cwd(), OPERATIONS_DOC)}: configuration table up to date`);
  } else {
    writeFileSync(OPERATIONS_DOC, after);
    console.log(`${path.relative(process.cwd(), OPERATIONS_DOC)}: configuration table rewritten`);
  }
}
