/**
 * `npm start` as a process (src/main.ts from source, as `npm run dev` runs it): its stdout lines,
 * a wait for the line that says it is up, and a stop by signal as Ctrl-C or a process manager
 * sends it. For the tests of start-up, the flags and a restart on the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../../../src/main.ts', import.meta.url));

/** A loopback port free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface BotProcess {
  proc: ChildProcess;
  /** Every stdout line so far. */
  lines: string[];
  stderr: string[];
  /** Resolves with the lines once `until` matches one (or the process exits first). */
  ready: Promise<string[]>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGINT: Ctrl-C) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs main.ts with only `env` (and PATH) in its environment and `args` on its command line. */
export function startBotProcess(
  env: Record<string, string>,
  until: (line: string) => boolean,
  args: string[] = [],
): BotProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const lines: string[] = [];
  const stderr: string[] = [];
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => void stderr.push(chunk));
  const ready = new Promise<string[]>((resolve) => {
    let buffered = '';
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts);
      if (parts.some(until)) resolve(lines);
    });
    void exited.then(() => resolve(lines));
  });
  return {
    proc,
    lines,
    stderr,
    ready,
    exited,
    async stop(signal = 'SIGINT') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}
