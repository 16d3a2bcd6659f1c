/** One sample of a Prometheus text exposition: `name{label="value",...} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** Parses what a scraper reads (comments and blank lines skipped); throws on a line it cannot read. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    // Prometheus reads NaN and Inf in any case (prom-client writes `Nan`).
    const word = match[3]!.toLowerCase();
    const value = word === '+inf' || word === 'inf' ? Infinity : word === '-inf' ? -Infinity : word === 'nan' ? NaN : Number(word);
    if (Number.isNaN(value) && word !== 'nan') throw new Error(`not a sample value: ${line}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/** The samples named `name` whose labels include `labels`. */
export function samplesOf(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The one sample named `name` with `labels` (undefined when absent; throws when several match). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samplesOf(samples, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** GET `url`/metrics and parse it, checking the content type a Prometheus scraper expects. */
export async function scrape(baseUrl: string): Promise<{ samples: Sample[]; text: string }> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics: ${response.status} ${await response.text()}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain') || !type.includes('version=0.0.4')) throw new Error(`GET /metrics content-type ${type}`);
  const text = await response.text();
  return { samples: parseExposition(text), text };
}
