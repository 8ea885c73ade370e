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
  'src/bot/domain/money.ts': [
    '../slack/render.js', // domain-arrows-down
    'node:fs', // domain-no-io
    'lowdb', // domain-no-io
    './missing.js', // not-to-unresolvable
  ],
  'src/bot/domain/policy.ts': ['./money.js'], // allowed: within the layer
  'src/bot/ports/exchange.ts': ['../domain/money.js', '../engine/engine.js'], // allowed, then ports-arrows-down
  'src/bot/engine/engine.ts': [
    '../domain/policy.js', // allowed
    '../ports/exchange.js', // allowed
    '../exchange/client.js', // engine-arrows-down
    '../../stand-ins/sandbox/index.js', // engine-arrows-down and bot-never-imports-a-stand-in
    './tick.js', // the cycle engine -> tick -> engine: no-circular
    './approval/approve.js', // allowed: engine.ts composes the stages
  ],
  'src/bot/engine/context.ts': ['./config.js', './approval/approve.js'], // allowed, engine-base-below-stages
  'src/bot/engine/config.ts': [],
  'src/bot/engine/approval/approve.ts': ['../config.js'], // allowed: a stage builds on the base
  'src/bot/engine/tick.ts': ['./engine.js'],
  'src/bot/exchange/client.ts': ['./wire-api.js', '../ports/exchange.js', '../engine/engine.js'], // allowed, allowed, exchange-arrows-down and ports-only-in-ports-folder
  'src/bot/exchange/wire-api.ts': [],
  'src/bot/exchange/signer.ts': [],
  'src/bot/store/db.ts': ['../ports/exchange.js', '../exchange/client.js', '../slack/render.js', '../engine/engine.js'], // allowed, allowed, store-arrows-down, store-arrows-down and ports-only-in-ports-folder
  'src/bot/config/load.ts': [
    '../exchange/wire-api.js', // allowed: pure
    '../exchange/signer.js', // allowed for config only
    '../exchange/client.js', // config-only-pure-exchange
    '../engine/engine.js', // config-arrows-down
  ],
  'src/bot/slack/render.ts': [
    '../engine/engine.js', // allowed
    '../config/load.js', // allowed
    '../exchange/wire-api.js', // slack-arrows-down: slack reads the exchange through the ports only
    '../store/db.js', // slack-arrows-down
    '../../stand-ins/local-desk/protocol.js', // slack-arrows-down and bot-never-imports-a-stand-in
  ],
  'src/bot/slack/kit/blocks.ts': ['../../domain/money.js', '../render.js'], // allowed, slack-kit-below-features
  'src/bot/slack/withdrawals/form.ts': ['../kit/blocks.js', '../shell/app.js'], // allowed, slack-shell-above-features
  'src/bot/slack/shell/app.ts': ['../kit/blocks.js', '../render.js'], // allowed: the shell registers features over the kit
  'src/bot/ops/metrics.ts': ['../engine/engine.js', '../store/db.js'], // allowed, ops-arrows-down
  'src/bot/runtime/bot.ts': ['../store/db.js', '../slack/render.js', '../../stand-ins/sandbox/index.js'], // allowed, allowed, bot-never-imports-a-stand-in
  'src/stand-ins/sandbox/index.ts': ['../../bot/exchange/wire-api.js', '../../bot/slack/render.js'], // allowed, sandbox-arrows-down
  'src/stand-ins/fake-slack/fake.ts': ['../../bot/domain/money.js'], // fake-slack-stands-alone
  'src/stand-ins/local-desk/protocol.ts': ['../../bot/domain/money.js'], // local-desk-protocol-stands-alone
  'src/stand-ins/local-desk/page/main.ts': [
    './view.js', // allowed: within the page
    '../protocol.js', // allowed
    '../server/http.js', // local-desk-page-only-protocol
    'node:fs', // local-desk-page-no-node
  ],
  'src/stand-ins/local-desk/page/view.ts': [],
  'src/stand-ins/local-desk/server/http.ts': [
    '../protocol.js', // allowed
    '../../fake-slack/fake.js', // allowed
    '../../sandbox/index.js', // local-desk-server-arrows-down
  ],
  'src/stand-ins/preview/preview.ts': [
    '../sandbox/index.js',
    '../../bot/runtime/bot.js',
    '../local-desk/server/http.js',
  ], // allowed: the preview's composition
  'src/stand-ins/demo/cli.ts': ['../sandbox/index.js', '../../bot/runtime/bot.js'], // allowed: the demo's composition
  'src/main.ts': ['./bot/runtime/bot.js', './stand-ins/preview/preview.js'], // allowed: the composition root
  'src/bot/newlayer/thing.ts': ['./other.js', '../domain/money.js'], // allowed within, then no-unknown-layer
  'src/bot/newlayer/other.ts': [],
};

/** What the rules must report: rule, from, to (a cycle is reported at the edge the cruise enters it). */
const EXPECTED = [
  ['bot-never-imports-a-stand-in', 'src/bot/engine/engine.ts', 'src/stand-ins/sandbox/index.ts'],
  ['bot-never-imports-a-stand-in', 'src/bot/runtime/bot.ts', 'src/stand-ins/sandbox/index.ts'],
  ['bot-never-imports-a-stand-in', 'src/bot/slack/render.ts', 'src/stand-ins/local-desk/protocol.ts'],
  ['config-arrows-down', 'src/bot/config/load.ts', 'src/bot/engine/engine.ts'],
  ['config-only-pure-exchange', 'src/bot/config/load.ts', 'src/bot/exchange/client.ts'],
  ['domain-arrows-down', 'src/bot/domain/money.ts', 'src/bot/slack/render.ts'],
  ['domain-no-io', 'src/bot/domain/money.ts', 'fs'],
  ['domain-no-io', 'src/bot/domain/money.ts', 'node_modules/lowdb/lib/index.js'],
  ['engine-arrows-down', 'src/bot/engine/engine.ts', 'src/bot/exchange/client.ts'],
  ['engine-arrows-down', 'src/bot/engine/engine.ts', 'src/stand-ins/sandbox/index.ts'],
  ['engine-base-below-stages', 'src/bot/engine/context.ts', 'src/bot/engine/approval/approve.ts'],
  ['exchange-arrows-down', 'src/bot/exchange/client.ts', 'src/bot/engine/engine.ts'],
  ['fake-slack-stands-alone', 'src/stand-ins/fake-slack/fake.ts', 'src/bot/domain/money.ts'],
  ['local-desk-page-no-node', 'src/stand-ins/local-desk/page/main.ts', 'fs'],
  ['local-desk-page-only-protocol', 'src/stand-ins/local-desk/page/main.ts', 'src/stand-ins/local-desk/server/http.ts'],
  ['local-desk-protocol-stands-alone', 'src/stand-ins/local-desk/protocol.ts', 'src/bot/domain/money.ts'],
  ['local-desk-server-arrows-down', 'src/stand-ins/local-desk/server/http.ts', 'src/stand-ins/sandbox/index.ts'],
  ['no-unknown-layer', 'src/bot/newlayer/thing.ts', 'src/bot/domain/money.ts'],
  ['not-to-unresolvable', 'src/bot/domain/money.ts', './missing.js'],
  ['ops-arrows-down', 'src/bot/ops/metrics.ts', 'src/bot/store/db.ts'],
  ['ports-arrows-down', 'src/bot/ports/exchange.ts', 'src/bot/engine/engine.ts'],
  ['ports-only-in-ports-folder', 'src/bot/exchange/client.ts', 'src/bot/engine/engine.ts'],
  ['ports-only-in-ports-folder', 'src/bot/store/db.ts', 'src/bot/engine/engine.ts'],
  ['runtime-arrows-down', 'src/bot/runtime/bot.ts', 'src/stand-ins/sandbox/index.ts'],
  ['sandbox-arrows-down', 'src/stand-ins/sandbox/index.ts', 'src/bot/slack/render.ts'],
  ['slack-arrows-down', 'src/bot/slack/render.ts', 'src/bot/exchange/wire-api.ts'],
  ['slack-arrows-down', 'src/bot/slack/render.ts', 'src/bot/store/db.ts'],
  ['slack-arrows-down', 'src/bot/slack/render.ts', 'src/stand-ins/local-desk/protocol.ts'],
  ['slack-kit-below-features', 'src/bot/slack/kit/blocks.ts', 'src/bot/slack/render.ts'],
  ['slack-shell-above-features', 'src/bot/slack/withdrawals/form.ts', 'src/bot/slack/shell/app.ts'],
  ['store-arrows-down', 'src/bot/store/db.ts', 'src/bot/engine/engine.ts'],
  ['store-arrows-down', 'src/bot/store/db.ts', 'src/bot/slack/render.ts'],
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
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), include: ['src'] }),
    );
    // So 'lowdb' resolves into node_modules as it does in the project.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    result = await cruiseWithRules(dir);
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the checker sees the fixture's imports at all", () => {
    const engine = result.modules.find((m) => m.source === 'src/bot/engine/engine.ts');
    expect(engine?.dependencies.map((d) => d.resolved).sort()).toEqual([
      'src/bot/domain/policy.ts',
      'src/bot/engine/approval/approve.ts',
      'src/bot/engine/tick.ts',
      'src/bot/exchange/client.ts',
      'src/bot/ports/exchange.ts',
      'src/stand-ins/sandbox/index.ts',
    ]);
  });

  it('reports a forbidden arrow (domain -> slack) and a cycle', () => {
    const names = result.summary.violations.map(summary);
    expect(names).toContain('domain-arrows-down src/bot/domain/money.ts src/bot/slack/render.ts');
    const cycles = result.summary.violations
      .filter((v) => v.rule.name === 'no-circular')
      .map((v) =>
        (v.cycle ?? [])
          .map((step) => step.name)
          .sort()
          .join(' '),
      );
    expect(cycles).toContain('src/bot/engine/engine.ts src/bot/engine/tick.ts');
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
    expect(real.modules.filter((m) => m.source.startsWith('src/') && /\.tsx?$/.test(m.source)).length).toBe(
      tsFiles.length,
    );
    expect(real.summary.violations.map(summary)).toEqual([]);
  }, 60_000);
});
