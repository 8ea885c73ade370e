/**
 * What the sandbox keeps across a restart, as a payment provider's test mode does: its whole
 * state (ledger, records, prices, generators) and its clock, as one JSON text. The codec is
 * generic over the state objects (Maps, generators, the bytes and query of a write taken late):
 * a field added to a record persists with no change here. Writing the text durably is the
 * composition's job (the sandbox imports nothing of the store).
 */
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
    const tagged = value as { $map?: [unknown, unknown][]; $rng?: { seed: string; at: number }; $query?: string; type?: unknown; data?: unknown };
    if (tagged.$map) return new Map(tagged.$map);
    if (tagged.$rng) return createRng(tagged.$rng.seed, tagged.$rng.at);
    if (tagged.$query !== undefined) return new URLSearchParams(tagged.$query);
    // Buffer.toJSON's shape: the raw body of a write taken late.
    if (tagged.type === 'Buffer' && Array.isArray(tagged.data)) return Buffer.from(tagged.data as number[]);
    return value;
  }) as { version: unknown; clock: ClockReading; body: SandboxBody };
  if (saved.version !== SAVED_SANDBOX_VERSION) throw new Error(`the saved sandbox is version ${String(saved.version)}; this build reads ${SAVED_SANDBOX_VERSION}`);
  return { version: SAVED_SANDBOX_VERSION, clock: saved.clock, ...saved.body };
}
