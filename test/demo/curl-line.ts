/**
 * Reads a printed `curl ...` line the way a shell and curl would, for the flags the demo prints
 * (-H, -d, -s, -o, -w) and a trailing comment; any other flag throws, so a test never skips part of what was printed.
 */

export interface CurlRequest {
  /** The line's shell comment, if any ('' when none). */
  comment: string;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** `-o /dev/null`: the answer is not shown, only what `-w` reports about it. */
  discardsBody: boolean;
}

export interface ShellLine {
  words: string[];
  /** The text after an unquoted `#` that starts a word, trimmed; '' when there is none. */
  comment: string;
}

/** Splits a line into words as sh does for quotes, backslashes and comments (no variables, no globbing). */
export function shellWords(line: string): ShellLine {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '#' && word === null) {
      return { words, comment: line.slice(i + 1).trim() };
    } else if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = '';
      for (i++; i < line.length && line[i] !== '"'; i++) text += line[i] === '\\' && /["\\$`]/.test(line[i + 1] ?? '') ? line[++i] : line[i];
      if (i >= line.length) throw new Error(`unclosed " in: ${line}`);
      word = (word ?? '') + text;
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/[;&|<>$`(){}*?]/.test(c)) {
      throw new Error(`unquoted ${c} in: ${line}`);
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return { words, comment: '' };
}

export function parseCurlLine(line: string): CurlRequest {
  const { words, comment } = shellWords(line);
  const [command, ...args] = words;
  if (command !== 'curl') throw new Error(`not a curl command: ${line}`);
  const headers: Record<string, string> = {};
  let url: string | undefined;
  let body: string | undefined;
  let discardsBody = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} without a value in: ${line}`);
      return next;
    };
    if (arg === '-H') {
      const header = value();
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (arg === '-d') body = value();
    else if (arg === '-o') discardsBody = value() === '/dev/null';
    else if (arg === '-w') value();
    else if (arg === '-s') continue;
    else if (arg.startsWith('-')) throw new Error(`flag ${arg} is not understood by this reader: ${line}`);
    else if (url === undefined) url = arg;
    else throw new Error(`second URL ${arg} in: ${line}`);
  }
  if (!url) throw new Error(`no URL in: ${line}`);
  // curl -d sends a form unless told otherwise.
  if (body !== undefined) headers['content-type'] ??= 'application/x-www-form-urlencoded';
  return { comment, method: body === undefined ? 'GET' : 'POST', url, headers, body, discardsBody };
}
