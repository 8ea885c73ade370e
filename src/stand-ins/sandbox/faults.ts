// Fault injection per route, seeded: every way the exchange may fail, the *_after_commit kinds (the work
// done; the connection cut, no answer, or a 5xx) and late_commit (committed later, whatever became of the caller) above all. The kinds and
// what each does: README "Faults".
import { z } from 'zod';
import { API_PREFIX } from '../../bot/exchange/protocol.js';
import { createRng, type Rng } from './prng.js';

export const FAULT_KINDS = [
  'latency',
  'error',
  'rate_limit',
  'hang',
  'drop',
  'drop_after_commit',
  'hang_after_commit',
  'error_after_commit',
  'malformed_json',
  'schema_break',
  'late_commit',
  'drop_notes',
  'short_pages',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const faultRule = z.strictObject({
  kind: z.enum(FAULT_KINDS),
  /** HTTP method, any when omitted. */
  method: z.string().optional(),
  /** `:name` matches one segment, a trailing `*` the rest; relative to API_PREFIX unless it starts with it. Any when omitted. */
  path: z.string().optional(),
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  status: z.number().int().min(400).max(599).optional(),
  /** error: the message of its error body, as the exchange might word a refusal the reference leaves unshown. */
  message: z.string().min(1).max(500).optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
  /** late_commit: sandbox-clock milliseconds from receipt to commit (default 15 s). */
  commitAfterMs: z.number().int().min(0).max(86_400_000).optional(),
  /** late_commit: what the caller gets meanwhile (default hang: no answer until it gives up). */
  answer: z.enum(['hang', 'drop', 'gateway_timeout']).optional(),
  /** short_pages: the most items a list page serves, whatever page[size] asked (default 1): a server that pages shorter. */
  pageSize: z.number().int().min(1).optional(),
  /** Chance that a matching request is hit, 0..1 (seeded). Default 1. */
  probability: z.number().min(0).max(1).optional(),
  /** Only the next N matching requests are hit; unlimited when omitted. */
  times: z.number().int().min(1).optional(),
});
export type FaultRule = z.infer<typeof faultRule>;

/** What to do to one request: a delay, notes dropped, shorter pages, and at most one fault that replaces or follows the work. */
export interface FaultPlan {
  latencyMs: number;
  dropNotes: boolean;
  /** short_pages: list pages hold at most this many items. */
  pageSizeCap?: number;
  fault?: FaultRule;
}

/** Kinds that change how a request is served and combine with one other fault. */
const MODIFIERS: ReadonlySet<FaultKind> = new Set(['latency', 'drop_notes', 'short_pages']);

function matches(pattern: string | undefined, path: string): boolean {
  if (pattern === undefined) return true;
  const full = pattern.startsWith(API_PREFIX) || pattern.startsWith('/_') ? pattern : API_PREFIX + pattern;
  const want = full.split('/');
  const got = path.split('/');
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === '*' && i === want.length - 1) return true;
    const g = got[i];
    if (g === undefined) return false;
    if (w.startsWith(':') ? g === '' : w !== g) return false;
  }
  return want.length === got.length;
}

export class FaultSet {
  private rules: Array<{ rule: FaultRule; left: number }> = [];
  private rng: Rng;

  constructor(private readonly seed: string) {
    this.rng = createRng(`${seed}/faults`);
  }

  /** Replace every rule (the random sequence restarts, so a set of faults replays the same way). */
  set(rules: readonly FaultRule[]): void {
    this.rules = rules.map((r) => ({ rule: faultRule.parse(r), left: r.times ?? Infinity }));
    this.rng = createRng(`${this.seed}/faults`);
  }

  add(rule: FaultRule): void {
    this.rules.push({ rule: faultRule.parse(rule), left: rule.times ?? Infinity });
  }

  clear(): void {
    this.set([]);
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r.rule, ...(Number.isFinite(r.left) ? { times: r.left } : {}) }));
  }

  /** Decide the fate of one request; counts down `times` of the rules that fire. */
  decide(method: string, path: string): FaultPlan {
    const decision: FaultPlan = { latencyMs: 0, dropNotes: false };
    for (const entry of this.rules) {
      const { rule } = entry;
      if (entry.left <= 0) continue;
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue;
      if (!matches(rule.path, path)) continue;
      if (!MODIFIERS.has(rule.kind) && decision.fault) continue;
      if (rule.probability !== undefined && this.rng.next() >= rule.probability) continue;
      entry.left--;
      if (rule.kind === 'latency') decision.latencyMs += rule.latencyMs ?? 0;
      else if (rule.kind === 'drop_notes') decision.dropNotes = true;
      else if (rule.kind === 'short_pages')
        decision.pageSizeCap = Math.min(decision.pageSizeCap ?? Infinity, rule.pageSize ?? 1);
      else decision.fault = rule;
    }
    this.rules = this.rules.filter((r) => r.left > 0);
    return decision;
  }
}
