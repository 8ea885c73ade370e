/** A non-officer trying to declare a counterparty: refused, and the attempt audited. */
import type { SlackContext } from '../kit/slack-context.js';
import { errorText } from '../../domain/error-text.js';

export async function auditCounterpartyRefusal(
  ctx: SlackContext,
  userId: string,
  transactionId: string | undefined,
  where: string,
): Promise<void> {
  try {
    await ctx.deps.audit.append({
      type: 'counterparty.refused',
      actor: userId,
      data: { reason: 'not_compliance', where, ...(transactionId ? { transactionId } : {}) },
    });
  } catch (err) {
    ctx.logger.error(`audit of a refused counterparty attempt failed: ${errorText(err)}`);
  }
}
