/**
 * Child processes running TypeScript entries of the fault suite. The entry is bundled with esbuild
 * (the bundler tsx itself uses), once per vitest run (test/support/bundles-global.ts) or else once
 * per caller, so a child starts in ~0.2 s instead of the ~0.8 s tsx needs to load the whole source
 * tree: the crash trials start dozens of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLES_DIR_ENV } from '../../support/bundles-global.js';

export interface Bundle {
  file: string;
  dispose(): void;
}

/** Bundles `entry` (a path relative to this folder) with its dependencies into one ESM file. */
export async function bundleEntry(entry: string): Promise<Bundle> {
  const source = fileURLToPath(new URL(entry, import.meta.url));
  const runDir = process.env[BUNDLES_DIR_ENV];
  if (runDir) {
    // The run's folder outlives this file: the bundle stays for the next file that asks.
    const file = join(runDir, `${createHash('sha256').update(source).digest('hex').slice(0, 16)}.mjs`);
    if (!existsSync(file)) {
      const building = await bundleInto(source, mkdtempSync(join(runDir, 'building-')));
      // Atomic: a file that bundled the same entry at the same moment only did the work twice.
      renameSync(building.file, file);
      building.dispose();
    }
    return { file, dispose: () => {} };
  }
  return bundleInto(source, mkdtempSync(join(tmpdir(), 'fault-child-')));
}

async function bundleInto(source: string, dir: string): Promise<Bundle> {
  const file = join(dir, 'child.mjs');
  await build({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: file,
    logLevel: 'error',
    // CommonJS dependencies inside an ESM bundle still call require() for node builtins.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunningChild {
  proc: ChildProcess;
  /** Parsed JSON lines of stdout, in order. */
  events: Array<Record<string, unknown>>;
  stderr(): string;
  /** Resolves when the process has exited and been reaped. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first event matching (or undefined if the child exits first). */
  waitFor(match: (event: Record<string, unknown>) => boolean): Promise<Record<string, unknown> | undefined>;
  /** waitFor an event of this `event` type. */
  waitForEvent(type: string): Promise<Record<string, unknown> | undefined>;
  kill(): void;
}

/** The running bot's (src/main.ts) log line that says it is listening; it carries the bound `port`. */
export const isBotStarted = (event: Record<string, unknown>): boolean => event.msg === 'desk bot started';

/** Starts `node [nodeArgs] <bundle>` with `env` added to a minimal environment. */
export function startChild(
  bundle: Bundle,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): RunningChild {
  const proc = spawn(process.execPath, [...nodeArgs, bundle.file], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: Array<Record<string, unknown>> = [];
  const waiters: Array<{
    match: (e: Record<string, unknown>) => boolean;
    resolve: (e: Record<string, unknown> | undefined) => void;
  }> = [];
  let err = '';
  let buffered = '';
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!line.trim()) continue;
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line) as Record<string, unknown>;
      } catch {
        event = { event: 'text', text: line };
      }
      events.push(event);
      for (const w of waiters.filter((x) => x.match(event))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(event);
      }
    }
  });
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => {
      for (const w of waiters.splice(0)) w.resolve(undefined);
      resolve({ code, signal });
    }),
  );
  return {
    proc,
    events,
    stderr: () => err,
    exited,
    waitFor(match) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(undefined);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    waitForEvent(type) {
      return this.waitFor((e) => e.event === type);
    },
    kill() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    },
  };
}
