/**
 * What a desk does in a fault trial, written so that it can be run again after any crash: each
 * planned request carries a tag in its note; running the plan creates the requests not yet
 * stored, approves the ones still waiting with the approvers who have not yet approved, and ticks
 * the engine until every planned request has left the in-doubt states. Like people re-clicking in
 * Slack after the bot came back, and deciding to send again a withdrawal the exchange never showed.
 */
import type { Engine, RequestInput } from '../../../src/bot/engine/engine.js';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import { DESK_PEOPLE } from './desk.js';

export type PlanItem = { tag: string; input: RequestInput };

/** States a settled request may be in: final, or handed to the exchange and followed. */
export const SETTLED_STATES: readonly RequestRecord['state'][] = [
  'submitted',
  'completed',
  'failed',
  'rejected',
  'cancelled',
  'expired',
];

export const tagNote = (tag: string): string => `fault-plan ${tag}`;

export function withTag(tag: string, input: RequestInput): PlanItem {
  return { tag, input: { ...input, note: tagNote(tag) } };
}

/** The stored request carrying `tag`, live or finished. */
export async function findTagged(engine: Engine, tag: string): Promise<RequestRecord | undefined> {
  const note = tagNote(tag);
  const all = [...(await engine.listLive()), ...(await engine.recent(10_000))];
  return all.find((r) => r.snapshot.note === note);
}

/**
 * Creates what is missing and approves what waits; returns the ids by tag. A refused creation
 * (exchange unreadable) is told to `refused` and tried again on the next pass.
 */
export async function advancePlan(
  engine: Engine,
  plan: readonly PlanItem[],
  refused?: (tag: string, message: string) => void,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const item of plan) {
    let record = await findTagged(engine, item.tag);
    if (record === undefined) {
      const created = await engine.request(DESK_PEOPLE.requester, item.input);
      if (!created.ok) {
        refused?.(item.tag, created.message);
        continue;
      }
      record = created.request;
    }
    ids.set(item.tag, record.id);
    if (record.execution?.inDoubt?.question?.kind === 'not_found') {
      // The exchange never showed it within the settle window: an approver checks and sends it again.
      const approver = DESK_PEOPLE.approvers.find((a) => a !== record!.requester)!;
      await engine.settle(record.id, approver, { action: 'send_again', checked: 'Not in the exchange history.' });
      continue;
    }
    if (record.state !== 'pending' && record.state !== 'awaiting_reapproval') continue;
    for (const user of DESK_PEOPLE.approvers.slice(0, record.requiredApprovals)) {
      if (record.approvals.some((a) => a.userId === user)) continue;
      const approved = await engine.approve(record.id, user, record.snapshotHash);
      if (!approved.ok) break;
      record = approved.request;
      if (approved.approved) break;
    }
  }
  return ids;
}

/**
 * Creates and approves the plan, trying a creation again (up to `tries` passes) when the exchange
 * did not answer it in time (a loaded machine), as a person would; then waits for what that started.
 */
export async function approvePlan(engine: Engine, plan: readonly PlanItem[], tries = 5): Promise<void> {
  for (let i = 0; i < tries && (await advancePlan(engine, plan)).size < plan.length; i++);
  await engine.idle();
}

/**
 * Runs the plan until every item is stored and settled, or `deadline` (epoch ms) passes.
 * `pause` waits between rounds (real time in a child process).
 */
export async function runPlan(
  engine: Engine,
  plan: readonly PlanItem[],
  deadline: number,
  pause: () => Promise<void>,
): Promise<{ settled: boolean; records: RequestRecord[] }> {
  for (;;) {
    const ids = await advancePlan(engine, plan);
    await engine.tick();
    await engine.idle();
    const records = (await Promise.all([...ids.values()].map((id) => engine.get(id)))).filter(
      (r): r is RequestRecord => r !== undefined,
    );
    const settled = records.length === plan.length && records.every((r) => SETTLED_STATES.includes(r.state));
    if (settled || Date.now() > deadline) return { settled, records };
    await pause();
  }
}
