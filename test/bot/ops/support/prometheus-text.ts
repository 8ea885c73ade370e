/**
 * Reads the Prometheus text exposition format (version 0.0.4) strictly enough to fail a test on a
 * malformed line: every line is a `# HELP`, a `# TYPE` or a sample `name{label="value",...} value`,
 * every sample's family has a TYPE, and every value is a number.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
  /** The samples of `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
  /** The one sample of `name` with exactly these labels (throws when there is none). */
  value(name: string, labels?: Record<string, string>): number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const where = `line ${i + 1}: ${line}`;
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) {
      const [, kind, name, rest] = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line) ?? [];
      if (!name || !NAME.test(name)) throw new Error(`bad metric name, ${where}`);
      if (kind === 'TYPE') {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest ?? ''))
          throw new Error(`bad type, ${where}`);
        types.set(name, rest!);
      }
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample, ${where}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < m[2].length) {
        const l = LABEL.exec(m[2]);
        if (!l) throw new Error(`bad labels, ${where}`);
        labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      }
    }
    const value = Number(m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : m[3]);
    if (Number.isNaN(value) && m[3] !== 'NaN') throw new Error(`bad value, ${where}`);
    const family = m[1]!.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(m[1]!) && !types.has(family)) throw new Error(`sample without a TYPE, ${where}`);
    samples.push({ name: m[1]!, labels, value });
  }
  const matches = (s: Sample, labels: Record<string, string>) =>
    Object.entries(labels).every(([k, v]) => s.labels[k] === v);
  return {
    types,
    samples,
    find: (name, labels = {}) => samples.filter((s) => s.name === name && matches(s, labels)),
    value(name, labels = {}) {
      const found = samples.filter(
        (s) => s.name === name && matches(s, labels) && Object.keys(s.labels).length === Object.keys(labels).length,
      );
      if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
      return found[0]!.value;
    },
  };
}
