/** Help and usage lines are wrapped to the terminal, and never wider than this. */
export const MAX_COLUMNS = 80;

export function terminalColumns(stream: NodeJS.WriteStream = process.stdout): number {
  return Math.min(MAX_COLUMNS, stream.isTTY && stream.columns ? stream.columns : MAX_COLUMNS);
}

/** Words of a usage line, keeping `[--kind K]` and `(--graph FILE | --release ID)` whole. */
function usageWords(text: string): string[] {
  const words: string[] = [];
  let depth = 0;
  let word = '';
  for (const ch of text) {
    if (ch === '[' || ch === '(') depth++;
    if (ch === ']' || ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ' ' && depth === 0) {
      if (word) words.push(word);
      word = '';
    } else word += ch;
  }
  if (word) words.push(word);
  return words;
}

/** Fills `text` into lines of at most `width` columns: the first starts with `indent`, the rest with `hang`. */
export function wrap(text: string, width: number, indent = '', hang = indent, words = text.split(/\s+/).filter(Boolean)): string[] {
  const lines: string[] = [];
  let line = indent;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = hang;
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** Top-level alternatives of a usage string (`list [--kind K] | show ID`), each starting with the command's name. */
export function usageAlternatives(name: string, usage: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < usage.length; i++) {
    const ch = usage[i];
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && usage.startsWith(' | ', i)) {
      parts.push(usage.slice(start, i));
      start = i + 3;
    }
  }
  parts.push(usage.slice(start));
  return parts.map((p) => p.trim()).map((p) => (p === name || p.startsWith(`${name} `) ? p : `${name} ${p}`));
}

/** `canmap <usage>` lines, one per alternative, wrapped with a hanging indent. */
export function usageLines(name: string, usage: string, width: number, indent = ''): string[] {
  return usageAlternatives(name, usage).flatMap((alt) => wrap(`canmap ${alt}`, width, indent, `${indent}         `, usageWords(`canmap ${alt}`)));
}

/** Rewraps the `usage: canmap …` line of an error message (the rest is left as it is). */
export function wrapUsageInMessage(message: string, width: number): string {
  return message
    .split('\n')
    .flatMap((line) => {
      const m = /^usage: canmap (\S+)(?: (.*))?$/.exec(line);
      if (!m) return [line];
      const [lines] = [usageLines(m[1]!, m[2] ? `${m[1]} ${m[2]}` : m[1]!, width, '  ')];
      return ['usage:', ...lines];
    })
    .join('\n');
}
