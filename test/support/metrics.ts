// Reads a scrape the way Prometheus does: sample lines `name{label="value",...} number`, comments skipped.
// (The npm parsers checked drop histogram labels and counts; this reads samples only, which is all tests need.)

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export type Scrape = Sample[];

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): Scrape {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL)) labels[k!] = v!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** GET /metrics as Prometheus would. */
export async function scrape(url: string, token?: string): Promise<Scrape> {
  const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (res.status !== 200) throw new Error(`scrape answered ${res.status}`);
  return parseExposition(await res.text());
}

const matches = (labels: Record<string, string>, want: Record<string, string>) => Object.entries(want).every(([k, v]) => labels[k] === v);

/** The sum of the samples of `name` with these labels (0 when none); for a histogram pass `<name>_count`. */
export const value = (s: Scrape, name: string, want: Record<string, string> = {}) =>
  s.filter((x) => x.name === name && matches(x.labels, want)).reduce((sum, x) => sum + x.value, 0);

/** The label sets of one sample name, for cardinality checks. */
export const labelSets = (s: Scrape, name: string) => s.filter((x) => x.name === name).map((x) => x.labels);
