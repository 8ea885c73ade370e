/**
 * The layer rules live in .dependency-cruiser.cjs and run on src/ in `npm test` (`npm run lint:deps`).
 * This test proves the rules bite: it cruises a tiny fixture tree, laid out like src/, with the same
 * rules file, and checks that exactly the forbidden arrows and the cycle are reported, and that
 * the allowed arrows are not (a rules file that matches nothing would pass lint:deps silently).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RULES = join(ROOT, '.dependency-cruiser.cjs');

/** The fixture: file -> its imports. Each line's comment says which rule it should (not) trip. */
const FIXTURE: Record<string, readonly string[]> = {
  'src/domain/money.ts': [
    '../slack/render.js', // domain-arrows-down
    'node:fs', // domain-no-io
    'lowdb', // domain-no-io
    './missing.js', // not-to-unresolvable
  ],
  'src/domain/policy.ts': ['./money.js'], // allowed: within the layer
  'src/ports/exchange.ts': ['../domain/money.js', '../app/engine.js'], // allowed, then ports-arrows-down
  'src/app/engine.ts': [
    '../domain/policy.js', // allowed
    '../ports/exchange.js', // allowed
    '../exchange/client.js', // app-arrows-down
    '../sandbox/index.js', // app-arrows-down and sandbox-only-from-composition
    './tick.js', // the cycle engine -> tick -> engine: no-circular
  ],
  'src/app/tick.ts': ['./engine.js'],
  'src/exchange/client.ts': ['./wire-api.js', '../ports/exchange.js', '../app/engine.js'], // allowed, allowed, exchange-arrows-down
  'src/exchange/wire-api.ts': [],
  'src/exchange/signer.ts': [],
  'src/store/db.ts': ['../app/engine.js', '../exchange/client.js', '../slack/render.js'], // allowed, allowed, store-arrows-down
  'src/config/load.ts': [
    '../exchange/wire-api.js', // allowed: pure
    '../exchange/signer.js', // allowed for config only
    '../exchange/client.js', // config-only-pure-exchange
    '../app/engine.js', // config-arrows-down
  ],
  'src/slack/render.ts': [
    '../app/engine.js', // allowed
    '../config/load.js', // allowed
    '../exchange/wire-api.js', // slack-arrows-down: slack reads the exchange through the ports only
    '../store/db.js', // slack-arrows-down
    '../local-desk/protocol.js', // slack-arrows-down and local-desk-only-from-composition
  ],
  'src/ops/metrics.ts': ['../app/engine.js', '../store/db.js'], // allowed, ops-arrows-down
  'src/sandbox/index.ts': ['../exchange/wire-api.js', '../slack/render.js'], // allowed, sandbox-arrows-down
  'src/devtools/fake.ts': ['../domain/money.js'], // devtools-arrows-down
  'src/runtime/bot.ts': ['../sandbox/index.js', '../store/db.js', '../slack/render.js', '../local-desk/server/http.js'], // allowed: composition
  'src/local-desk/protocol.ts': ['../domain/money.js'], // local-desk-protocol-stands-alone
  'src/local-desk/page/main.ts': [
    './view.js', // allowed: within the page
    '../protocol.js', // allowed
    '../server/http.js', // local-desk-page-only-protocol
    'node:fs', // local-desk-page-no-node
  ],
  'src/local-desk/page/view.ts': [],
  'src/local-desk/server/http.ts': [
    '../protocol.js', // allowed
    '../../devtools/fake.js', // allowed
    '../../sandbox/index.js', // local-desk-server-arrows-down and sandbox-only-from-composition
  ],
  'src/demo/cli.ts': ['../sandbox/index.js'], // allowed: composition
  'src/main.ts': ['./runtime/bot.js', './sandbox/index.js'], // allowed: composition
  'src/newlayer/thing.ts': ['./other.js', '../domain/money.js'], // allowed within, then no-unknown-layer
  'src/newlayer/other.ts': [],
};

/** What the rules must report: rule, from, to (a cycle is reported at the edge the cruise enters it). */
const EXPECTED = [
  ['app-arrows-down', 'src/app/engine.ts', 'src/exchange/client.ts'],
  ['app-arrows-down', 'src/app/engine.ts', 'src/sandbox/index.ts'],
  ['config-arrows-down', 'src/config/load.ts', 'src/app/engine.ts'],
  ['config-only-pure-exchange', 'src/config/load.ts', 'src/exchange/client.ts'],
  ['devtools-arrows-down', 'src/devtools/fake.ts', 'src/domain/money.ts'],
  ['domain-arrows-down', 'src/domain/money.ts', 'src/slack/render.ts'],
  ['domain-no-io', 'src/domain/money.ts', 'fs'],
  ['domain-no-io', 'src/domain/money.ts', 'node_modules/lowdb/lib/index.js'],
  ['exchange-arrows-down', 'src/exchange/client.ts', 'src/app/engine.ts'],
  ['local-desk-only-from-composition', 'src/slack/render.ts', 'src/local-desk/protocol.ts'],
  ['local-desk-page-no-node', 'src/local-desk/page/main.ts', 'fs'],
  ['local-desk-page-only-protocol', 'src/local-desk/page/main.ts', 'src/local-desk/server/http.ts'],
  ['local-desk-protocol-stands-alone', 'src/local-desk/protocol.ts', 'src/domain/money.ts'],
  ['local-desk-server-arrows-down', 'src/local-desk/server/http.ts', 'src/sandbox/index.ts'],
  ['no-unknown-layer', 'src/newlayer/thing.ts', 'src/domain/money.ts'],
  ['not-to-unresolvable', 'src/domain/money.ts', './missing.js'],
  ['ops-arrows-down', 'src/ops/metrics.ts', 'src/store/db.ts'],
  ['ports-arrows-down', 'src/ports/exchange.ts', 'src/app/engine.ts'],
  ['sandbox-arrows-down', 'src/sandbox/index.ts', 'src/slack/render.ts'],
  ['sandbox-only-from-composition', 'src/app/engine.ts', 'src/sandbox/index.ts'],
  ['sandbox-only-from-composition', 'src/local-desk/server/http.ts', 'src/sandbox/index.ts'],
  ['slack-arrows-down', 'src/slack/render.ts', 'src/exchange/wire-api.ts'],
  ['slack-arrows-down', 'src/slack/render.ts', 'src/local-desk/protocol.ts'],
  ['slack-arrows-down', 'src/slack/render.ts', 'src/store/db.ts'],
  ['store-arrows-down', 'src/store/db.ts', 'src/slack/render.ts'],
].map((v) => v.join(' '));

async function cruiseWithRules(baseDir: string): Promise<ICruiseResult> {
  const options: ICruiseOptions = await extractDepcruiseOptions(RULES);
  const tsConfigFile = join(baseDir, 'tsconfig.json');
  const result = await cruise(
    ['src'],
    { ...options, baseDir, tsConfig: { fileName: tsConfigFile } },
    {},
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  if (typeof result.output === 'string') throw new Error('expected a cruise result, got a report');
  return result.output;
}

/** rule from to; the fixture's node_modules is a link to the project's, which resolves to its real path. */
const summary = (v: IViolation) => `${v.rule.name} ${v.from} ${v.to.replace(/^.*\/node_modules\//, 'node_modules/')}`;

describe('dependency-cruiser rules (.dependency-cruiser.cjs)', () => {
  let dir: string;
  let result: ICruiseResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'depcruise-fixture-'));
    for (const [file, imports] of Object.entries(FIXTURE)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      const lines = imports.map((spec, i) => `import * as m${i} from '${spec}';\nexport const use${i} = m${i};`);
      writeFileSync(join(dir, file), [...lines, 'export const here = 1;', ''].join('\n'));
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), include: ['src'] }));
    // So 'lowdb' resolves into node_modules as it does in the project.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    result = await cruiseWithRules(dir);
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the checker sees the fixture\'s imports at all', () => {
    const engine = result.modules.find((m) => m.source === 'src/app/engine.ts');
    expect(engine?.dependencies.map((d) => d.resolved).sort()).toEqual([
      'src/app/tick.ts',
      'src/domain/policy.ts',
      'src/exchange/client.ts',
      'src/ports/exchange.ts',
      'src/sandbox/index.ts',
    ]);
  });

  it('reports a forbidden arrow (domain -> slack) and a cycle', () => {
    const names = result.summary.violations.map(summary);
    expect(names).toContain('domain-arrows-down src/domain/money.ts src/slack/render.ts');
    const cycle = result.summary.violations.find((v) => v.rule.name === 'no-circular');
    expect(cycle?.cycle?.map((step) => step.name).sort()).toEqual(['src/app/engine.ts', 'src/app/tick.ts']);
  });

  it('reports exactly the forbidden arrows of the fixture, and none of the allowed ones', () => {
    const arrows = result.summary.violations.filter((v) => v.rule.name !== 'no-circular').map(summary);
    expect([...new Set(arrows)].sort()).toEqual(EXPECTED);
    expect(result.summary.error).toBe(result.summary.violations.length);
  });

  it('on the real tree: cruises every .ts and .tsx file of src/ (a resolution or filter mistake would hide imports)', async () => {
    const real = await cruiseWithRules(ROOT);
    const tsFiles = (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f));
    // The page's stylesheet (imported by main.tsx for the bundle) is a module too, but not code.
    expect(real.modules.filter((m) => m.source.startsWith('src/') && /\.tsx?$/.test(m.source)).length).toBe(tsFiles.length);
    expect(real.summary.violations.map(summary)).toEqual([]);
  }, 60_000);
});
