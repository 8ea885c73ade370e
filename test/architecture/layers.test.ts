/**
 * Keeps the dependency direction of design.md: slack -> app -> domain; exchange and store
 * implement ports of app; sandbox is imported by nobody but main.ts, the demo and tests.
 * Reads every import of every file under src/ and checks it against the rules below.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** Which top-level folders of src/ each folder may import from (itself always allowed). */
const ALLOWED: Record<string, readonly string[]> = {
  domain: [],
  // The leaf both the engine and the exchange import: clock, list bounds, the exchange port in the engine's terms, its error.
  ports: ['domain'],
  // The engine sees the exchange only through ports/exchange.ts: never exchange/.
  app: ['domain', 'ports'],
  // The client and the port's adapter (exchange/engine-port/) know nothing of the engine: they import the ports, never app/.
  exchange: ['domain', 'ports'],
  store: ['app', 'domain', 'ports', 'exchange'],
  config: ['domain', 'exchange'],
  slack: ['app', 'domain', 'ports', 'config', 'exchange'],
  sandbox: ['exchange', 'domain', 'ports'],
  devtools: [],
  demo: ['*'],
  // The composition of the running bot (logger, stores, exchange connection, preview): main.ts's helpers.
  runtime: ['*'],
  'main.ts': ['*'],
};

/** exchange/ files that slack/ may import: pure protocol facts and types, no I/O. */
const EXCHANGE_PURE = new Set(['api.ts', 'schemas.ts', 'statuses.ts', 'assumptions.ts', 'secret.ts']);
/** config/ also parses the key at start (pure: no file or network), so a bad key stops the bot at once. */
const EXCHANGE_FOR_CONFIG = new Set([...EXCHANGE_PURE, 'signer.ts']);
/** Libraries that do I/O and must not appear in domain/. */
const IO_LIBS = [/^node:(fs|http|https|net|child_process)/, /^lowdb/, /^@slack\//];

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (p.endsWith('.ts')) yield p;
  }
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const re = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  return [...text.matchAll(re)].map((m) => m[1] ?? m[2]!).filter(Boolean);
}

function layerOf(file: string): string {
  const rel = relative(SRC, file).split(sep);
  return rel.length === 1 ? rel[0]! : rel[0]!;
}

describe('layering', () => {
  const violations: string[] = [];
  for (const file of files(SRC)) {
    const from = layerOf(file);
    const allowed = ALLOWED[from];
    for (const spec of importsOf(file)) {
      const rel = relative(SRC, file);
      if (from === 'domain' && IO_LIBS.some((re) => re.test(spec))) violations.push(`${rel} imports I/O library ${spec}`);
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      const to = layerOf(target);
      if (to === from) continue;
      if (allowed === undefined) violations.push(`${rel}: unknown layer ${from}`);
      else if (!allowed.includes('*') && !allowed.includes(to)) violations.push(`${rel} -> ${relative(SRC, target)}`);
      else if ((from === 'slack' || from === 'config') && to === 'exchange') {
        const name = relative(join(SRC, 'exchange'), target);
        const pure = from === 'config' ? EXCHANGE_FOR_CONFIG : EXCHANGE_PURE;
        if (!pure.has(name)) violations.push(`${rel} -> exchange/${name} (only pure exchange modules)`);
      }
      if (to === 'sandbox' && !['main.ts', 'runtime', 'demo', 'sandbox'].includes(from)) violations.push(`${rel} imports the sandbox`);
    }
  }

  it('every import points down the layers', () => {
    expect(violations).toEqual([]);
  });

  it('the checker sees imports at all (guards against a regex that matches nothing)', () => {
    const sample = importsOf(join(SRC, 'exchange', 'signer.ts'));
    expect(sample).toContain('./protocol.js');
  });
});
