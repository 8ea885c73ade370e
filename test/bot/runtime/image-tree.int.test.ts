/**
 * Build once, run what was built: the tree the Dockerfile's runtime stage holds, made the same way
 * here (no container engine on these machines). A copy of the project is installed (`npm ci`),
 * built by the launcher `npm start` runs (scripts/build-if-stale.mjs: it builds when the build is
 * missing or stale, not when it is fresh), pruned to production dependencies, and cut down to what the
 * runtime stage copies. There, with plain node and the image's environment and command, the bot
 * starts on its embedded defaults (serving /healthz and the local desk) and every operator
 * command of package.json answers --help.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/stand-ins/local-desk/protocol.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
/** The package.json scripts that run a build from dist/ ("… && exec node dist/x.js"), by name. */
const distScripts = Object.entries(pkg.scripts).flatMap(([name, line]) => {
  const entry = /exec node (dist\/\S+\.js)$/.exec(line)?.[1];
  return entry ? [{ name, entry }] : [];
});
// eo-lock's branch gives these --help; until it lands they answer "Unknown option" (audit, store) or
// need EXCHANGE_BASE_URL (check-exchange), so here they are only required to load and run under node.

/** The runtime stage: its ENV, the top-level names it copies into WORKDIR, its CMD and its HEALTHCHECK's. */
function runtimeStage(): { env: Record<string, string>; copied: string[]; cmd: string[]; healthcheck: string[] } {
  const lines = dockerfile.replace(/\\\n\s*/g, ' ').split('\n');
  const stage = lines.slice(lines.findLastIndex((l) => /^FROM\s/.test(l)));
  const env: Record<string, string> = {};
  for (const l of stage.filter((l) => /^ENV\s/.test(l)))
    for (const m of l.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) env[m[1]!] = m[2]!;
  const copied = stage
    .filter((l) => /^COPY\s/.test(l))
    .flatMap((l) => {
      const args = l
        .split(/\s+/)
        .slice(1)
        .filter((a) => !a.startsWith('--'));
      const dest = args.pop()!;
      return dest === './' ? args.map((a) => basename(a)) : [basename(dest)];
    });
  const cmd = JSON.parse(stage.find((l) => /^CMD\s/.test(l))!.replace(/^CMD\s+/, '')) as string[];
  const healthcheck = JSON.parse(
    /^HEALTHCHECK\s.*?\sCMD\s+(\[.*\])$/.exec(stage.find((l) => /^HEALTHCHECK\s/.test(l))!)![1]!,
  ) as string[];
  return { env, copied, cmd, healthcheck };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** What npm and node need, without the npm_* variables of the `npm test` running this. */
const baseEnv = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? tmpdir(),
  ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}),
};
const run = (cwd: string, command: string, args: string[]) =>
  execFileSync(command, args, { cwd, env: baseEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The project's own files, as a clone has them (tracked and new, not ignored). */
function copyProject(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f && existsSync(join(ROOT, f)));
  for (const f of files) {
    mkdirSync(dirname(join(to, f)), { recursive: true });
    cpSync(join(ROOT, f), join(to, f));
  }
}

let dir: string;
let firstBuildAt: number;
let builtAt: number;

describe('the image tree (npm ci, build, npm prune --omit=dev, only what the runtime stage copies)', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'image-tree-'));
    copyProject(dir);
    run(dir, 'npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund']);
    // A fresh clone has no build: the launcher before `npm start` makes it.
    run(dir, process.execPath, ['scripts/build-if-stale.mjs']);
    firstBuildAt = statSync(join(dir, 'dist/main.js')).mtimeMs;
    // A source changed since (a pull, an edit): the build is stale and made again ...
    const later = new Date(firstBuildAt + 2_000);
    utimesSync(join(dir, 'src/bot/config/env-schema.ts'), later, later);
    run(dir, process.execPath, ['scripts/build-if-stale.mjs']);
    builtAt = statSync(join(dir, 'dist/main.js')).mtimeMs;
    // ... and not again while it is fresh.
    run(dir, process.execPath, ['scripts/build-if-stale.mjs']);
    run(dir, 'npm', ['prune', '--omit=dev', '--no-audit', '--no-fund']);
  }, 600_000);
  // Removing a copied node_modules takes long on a loaded machine.
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('the launcher built the missing build, built the stale one again, not the fresh one; pruned, it never builds', () => {
    expect(builtAt).toBeGreaterThan(firstBuildAt);
    expect(statSync(join(dir, 'dist/main.js')).mtimeMs).toBe(builtAt);
    expect(existsSync(join(dir, 'dist/stand-ins/local-desk/app.js'))).toBe(true);
    const later = new Date(builtAt + 2_000);
    utimesSync(join(dir, 'src/bot/config/env-schema.ts'), later, later);
    const pruned = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], {
      cwd: dir,
      env: baseEnv,
      encoding: 'utf8',
    });
    expect(pruned.status).toBe(0);
    expect(pruned.stderr).toContain('there are no build tools here to rebuild it: running what was built');
    expect(statSync(join(dir, 'dist/main.js')).mtimeMs).toBe(builtAt);
  });

  it('holds no build tool: typescript, tsx, esbuild, preact, our @types and the test tools are gone', () => {
    // (@slack/bolt itself depends on @types/node, @types/express and others: those stay.)
    for (const name of [
      'typescript',
      'tsx',
      'esbuild',
      'preact',
      '@types/big.js',
      '@types/pg',
      'vitest',
      'playwright-core',
    ])
      expect(existsSync(join(dir, 'node_modules', name)), name).toBe(false);
    for (const name of ['@slack/bolt', 'pg', 'zod', 'big.js'])
      expect(existsSync(join(dir, 'node_modules', name)), name).toBe(true);
  });

  describe('cut down to the runtime stage', () => {
    const stage = runtimeStage();
    beforeAll(() => {
      for (const entry of readdirSync(dir))
        if (!stage.copied.includes(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
    });

    it('the runtime stage copies dist/, the production dependencies and package.json, and runs node on dist/main.js', () => {
      expect([...stage.copied].sort()).toEqual([
        'dist',
        'manifests',
        'node_modules',
        'package-lock.json',
        'package.json',
      ]);
      expect(stage.cmd).toEqual(['node', 'dist/main.js']);
      expect(stage.env.NODE_ENV).toBe('production');
      expect(readdirSync(dir).sort()).toEqual([...stage.copied].sort());
    });

    it('starts the bot as the image does: embedded defaults, /healthz on HEALTH_PORT, the local desk on PORT', async () => {
      const [port, healthPort] = [await freePort(), await freePort()];
      const [command, ...args] = stage.cmd;
      const env = { ...baseEnv, ...stage.env, PORT: String(port), HEALTH_PORT: String(healthPort), LOG_LEVEL: 'warn' };
      const bot = spawn(command === 'node' ? process.execPath : command!, args, {
        cwd: dir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      bot.stdout.setEncoding('utf8').on('data', (t: string) => (output += t));
      bot.stderr.setEncoding('utf8').on('data', (t: string) => (output += t));
      const exited = new Promise<number | null>((resolve) => bot.once('exit', (code) => resolve(code)));
      try {
        const deadline = Date.now() + 60_000;
        let health: Response | undefined;
        while (health?.status !== 200 && Date.now() < deadline && bot.exitCode === null) {
          health = await fetch(`http://127.0.0.1:${healthPort}/healthz`).catch(() => undefined);
          if (health?.status !== 200) await new Promise((r) => setTimeout(r, 200));
        }
        expect(health?.status, output).toBe(200);
        // The image's HEALTHCHECK, as Docker runs it in the container.
        const [probe, ...probeArgs] = stage.healthcheck;
        const check = spawnSync(probe === 'node' ? process.execPath : probe!, probeArgs, {
          cwd: dir,
          env,
          encoding: 'utf8',
          timeout: 10_000,
        });
        expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
        const page = await fetch(`http://127.0.0.1:${port}${ROUTES.page}`);
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain('<div id="app"></div>');
        // The page's script is the one `npm run build` bundled (esbuild is not installed here).
        const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
        expect(script, html).toBeDefined();
        expect((await fetch(`http://127.0.0.1:${port}${script}`)).status).toBe(200);
      } finally {
        bot.kill('SIGTERM');
      }
      expect(await exited, output).toBe(0);
      const [probe, ...probeArgs] = stage.healthcheck;
      expect(
        spawnSync(probe === 'node' ? process.execPath : probe!, probeArgs, { cwd: dir, env, timeout: 10_000 }).status,
      ).toBe(1);
    }, 90_000);

    it.each(distScripts.filter((s) => s.name !== 'start'))('npm run $name: node $entry --help', ({ entry }) => {
      const result = spawnSync(process.execPath, [entry, '--help'], {
        cwd: dir,
        env: { ...baseEnv, ...stage.env },
        encoding: 'utf8',
        timeout: 30_000,
      });
      const output = `${result.stdout}${result.stderr}`;
      expect(output).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (module|package)/);
      expect(result.status, output).toBe(0);
      expect(output).toMatch(/^usage: npm run /m);
    });
  });
});
