/** Short paths through the engine for tests that start later in a request's life. */
import type { RequestInput } from '../../../../src/bot/engine/approval/make-request.js';
import type { RequestRecord } from '../../../../src/bot/domain/record.js';
import { REQUESTER, type World } from './world.js';

export async function requestAndApprove(
  world: World,
  input: RequestInput,
  approvers: string[] = ['U_A2', 'U_A3'],
): Promise<RequestRecord> {
  const r = await world.engine.request(REQUESTER, input);
  if (!r.ok) throw new Error(`request refused: ${r.message}`);
  for (const user of approvers) {
    const a = await world.engine.approve(r.request.id, user, r.request.snapshotHash);
    if (!a.ok) throw new Error(`approval refused: ${a.message}`);
    if (a.execution) await a.execution;
  }
  await world.engine.idle();
  return world.record(r.request.id);
}
