/** Everything a command prints goes through here, so `--json` always yields exactly one JSON document. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

export interface Output {
  readonly json: boolean;
  /** The command's result: JSON document with --json, else the human text. */
  result(data: unknown, human: string | (() => string)): void;
  /** Progress and notes for people; silent with --json (goes to stderr so stdout stays parseable). */
  info(line: string): void;
  /** Something the user must act on, on stderr even with --json (stdout keeps its one document). */
  warn(line: string): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(data, human) {
      if (json) process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
      else process.stdout.write(`${typeof human === 'function' ? human() : human}\n`);
    },
    info(line) {
      if (!json) process.stderr.write(`${line}\n`);
    },
    warn(line) {
      process.stderr.write(`${line}\n`);
    },
  };
}

type Cell = string | number | boolean | null | undefined;

/** A plain aligned text table. */
export function table(headers: string[], rows: Cell[][]): string {
  if (rows.length === 0) return '(none)';
  const text = rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(headers.map((h) => h.toUpperCase())), ...text.map(line)].join('\n');
}
