import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commentsOf, namesIn, pathIndex, resolves, type KnownNames } from './support/path-names.js';

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f !== '' && !f.startsWith('test/fixtures/'));
const { paths, suffixes } = pathIndex(tracked);
// Comments cite files of the Slack libraries whose logging they tame (`@slack/bolt` dist/App.js).
for (const pkg of readdirSync('node_modules/@slack')) {
  const files = readdirSync(`node_modules/@slack/${pkg}`, { recursive: true, encoding: 'utf8' });
  pathIndex(files, new Set(), suffixes);
}
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string> | undefined>;
// The files the bot writes at run time, named by the code that writes them ('kv.json', 'policy.yaml').
const runtimeFiles = tracked
  .filter((f) => f.startsWith('src/') && f.endsWith('.ts'))
  .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/'([\w-]+\.(?:json|yaml))'/g)].map((m) => m[1]!));
const known: KnownNames = {
  paths,
  suffixes,
  others: new Set([
    ...Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }),
    ...runtimeFiles,
    // The file store's files, named in code by their stem ('kv', 'requests', 'step-up').
    'kv.json',
    'requests.json',
    'step-up.json',
    // The exchange reference and the design notes the code cites live beside the repository (/work/shared).
    'api-reference.md',
    'api-facts.md',
    'design.md',
  ]),
  outputs: readFileSync('.gitignore', 'utf8')
    .split('\n')
    .filter((l) => l.endsWith('/'))
    .map((l) => l.replace(/^\.?\//, '').replace(/\/$/, '')),
};
const exists = (name: string) => resolves(name, known);

/** What each comment (code) or whole file (docs) names that does not exist, as "file: name". */
function missing(files: readonly string[], textsOf: (file: string) => string[]): string[] {
  return files.flatMap((file) =>
    textsOf(file)
      .flatMap(namesIn)
      .filter((name) => !exists(name))
      .map((name) => `${file}: ${name}`),
  );
}

describe('comments and docs name files that exist', () => {
  it('catches a name that is gone, and lets a real one be (fixture)', () => {
    const fixture = `/** See src/bot/claims.ts, reconcile.ts and \`slack/library-log.ts\`, once in src/app/…; not src/bot/engine/ENGINE.md or \`domain/money.ts\`. */`;
    const found = commentsOf('fixture.ts', `${fixture}\nexport const x = 1;\n`)
      .flatMap(namesIn)
      .filter((n) => !exists(n));
    expect(found).toEqual(['src/bot/claims.ts', 'reconcile.ts', 'slack/library-log.ts', 'src/app/']);
  });

  it('in every comment of the code', () => {
    const code = tracked.filter(
      (f) => /^(src|test|bench|scripts)\/.*\.(ts|tsx|mjs|cjs)$/.test(f) || /^[^/]+\.(ts|mjs|cjs)$/.test(f),
    );
    expect(missing(code, (f) => commentsOf(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('in every document', () => {
    const docs = tracked.filter((f) => f.endsWith('.md'));
    expect(missing(docs, (f) => [readFileSync(f, 'utf8')])).toEqual([]);
  });
});
