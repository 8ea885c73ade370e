/**
 * The sandbox exchange as replicas meet it in production: one process of its own, started with
 * its CLI (`npm run sandbox`, src/stand-ins/sandbox/cli.ts, bundled) on a free loopback port with the key
 * the replicas sign with, and driven over its HTTP control surface (src/stand-ins/sandbox/control-http.ts):
 * its ledger (withdrawals, orders), its access log, its faults and its clock. Every request it
 * serves is one line on its stdout, the lines this file's `lines` watch.
 */
import type { SandboxControl } from '../../../../src/stand-ins/sandbox/control.js';
import { CONTROL_PREFIX, type FaultRule } from '../../../../src/stand-ins/sandbox/index.js';
import { startChild, type Bundle, type RunningChild } from '../../support/child-process.js';

type Withdrawal = ReturnType<SandboxControl['withdrawals']>[number];
type AccessEntry = ReturnType<SandboxControl['requests']>[number];
type Address = ReturnType<SandboxControl['addresses']>[number];

export interface SandboxProcess {
  /** http://127.0.0.1:<port>: the exchange's base URL. */
  readonly url: string;
  readonly port: number;
  readonly child: RunningChild;
  withdrawals(): Promise<Withdrawal[]>;
  requests(): Promise<AccessEntry[]>;
  addresses(): Promise<Address[]>;
  setFaults(faults: FaultRule[]): Promise<void>;
  clearFaults(): Promise<void>;
  /** Moves the exchange's clock forward (withdrawals move along their timeline). */
  advance(ms: number): Promise<void>;
  /** The index the next stdout line will have: a mark for `nextLine`. */
  mark(): number;
  /** The first stdout line after `mark` that matches, or undefined when the process ends first. */
  nextLine(mark: number, match: RegExp): Promise<string | undefined>;
  stop(): Promise<void>;
}

export interface SandboxProcessOptions {
  /** The bundled CLI (bundleEntry('../../../src/stand-ins/sandbox/cli.ts') from test/faults/support). */
  bundle: Bundle;
  publicKeyHex: string;
  seed: string;
}

/** Starts the CLI on port 0 and reads the port it bound from its "Base URL" line. */
export async function startSandboxProcess(o: SandboxProcessOptions): Promise<SandboxProcess> {
  const child = startChild(o.bundle, { SANDBOX_PORT: '0', SANDBOX_PUBLIC_KEY: o.publicKeyHex, SANDBOX_SEED: o.seed });
  const textOf = (e: Record<string, unknown>) => (e.event === 'text' ? String(e.text) : '');
  const base = await child.waitFor((e) => /^Base URL:\s+http:\/\/127\.0\.0\.1:\d+/.test(textOf(e)));
  if (!base) throw new Error(`the sandbox did not start: ${child.stderr().slice(-1_000)}`);
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec(textOf(base))![0];

  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${CONTROL_PREFIX}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox control ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  return {
    url,
    port: Number(new URL(url).port),
    child,
    withdrawals: () => control('GET', '/withdrawals'),
    requests: () => control('GET', '/requests'),
    addresses: () => control('GET', '/addresses'),
    setFaults: (faults) => control('PUT', '/faults', { faults }),
    clearFaults: () => control('DELETE', '/faults'),
    advance: (ms) => control('POST', '/clock/advance', { ms }),
    mark: () => child.events.length,
    nextLine(mark, match) {
      return child
        .waitFor((e) => child.events.indexOf(e) >= mark && match.test(textOf(e)))
        .then((e) => (e ? textOf(e) : undefined));
    },
    async stop() {
      child.proc.kill('SIGTERM');
      await child.exited;
    },
  };
}
