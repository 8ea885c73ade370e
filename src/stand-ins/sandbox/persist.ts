// The sandbox's whole state and clock as one JSON text, kept across restarts like a provider's test mode.
// The codec is generic, so a new record field persists with no change here; durable writing is the caller's.
import { createRng } from './prng.js';
import type { KeySpec } from './keys.js';
import type { LateCommit } from './late-commits.js';
import type { ClockReading } from './sandbox-clock.js';
import type { SandboxState } from './state.js';

/** Bumped when a saved file can no longer be read as the state of this build. */
export const SAVED_SANDBOX_VERSION = 1;

/** What moves: the records and the writes taken late. */
export interface SandboxBody {
  state: SandboxState;
  /** Writes the exchange took and commits later (the late_commit fault): it commits them after a restart too. */
  late: LateCommit[];
  /** The public keys registered so far: a write taken late is authenticated with its own after a restart. */
  keys: KeySpec[];
}

export interface SavedSandbox extends SandboxBody {
  version: typeof SAVED_SANDBOX_VERSION;
  clock: ClockReading;
}

/** The body as JSON: compared with the last one saved, so an answer that changed nothing writes nothing. */
export function encodeBody(body: SandboxBody): string {
  return JSON.stringify(body, (_key, value: unknown) => {
    if (value instanceof Map) return { $map: [...value.entries()] };
    if (value instanceof URLSearchParams) return { $query: value.toString() };
    return value;
  });
}

/** The whole file: the body as encodeBody gave it, with the clock. */
export function encodeSandbox(body: string, clock: ClockReading): string {
  return `{"version":${SAVED_SANDBOX_VERSION},"clock":${JSON.stringify(clock)},"body":${body}}`;
}

/** The text encodeSandbox wrote, back as live objects; throws on a file of another version. */
export function decodeSandbox(text: string): SavedSandbox {
  const saved = JSON.parse(text, (_key, value: unknown) => {
    if (value === null || typeof value !== 'object') return value;
    const tagged = value as {
      $map?: [unknown, unknown][];
      $rng?: { seed: string; at: number };
      $query?: string;
      type?: unknown;
      data?: unknown;
    };
    if (tagged.$map) return new Map(tagged.$map);
    if (tagged.$rng) return createRng(tagged.$rng.seed, tagged.$rng.at);
    if (tagged.$query !== undefined) return new URLSearchParams(tagged.$query);
    // Buffer.toJSON's shape: the raw body of a write taken late.
    if (tagged.type === 'Buffer' && Array.isArray(tagged.data)) return Buffer.from(tagged.data as number[]);
    return value;
  }) as { version: unknown; clock: ClockReading; body: SandboxBody };
  if (saved.version !== SAVED_SANDBOX_VERSION)
    throw new Error(`the saved sandbox is version ${String(saved.version)}; this build reads ${SAVED_SANDBOX_VERSION}`);
  return { version: SAVED_SANDBOX_VERSION, clock: saved.clock, ...saved.body };
}
