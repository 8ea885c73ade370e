// The persisted record read into what the builders show, from the record alone, so a message rebuilt
// after a restart (or from any event) shows the same thing.
import type { RequestRecord } from '../../domain/record.js';
import { approvalMessage, type ApprovalMessageInput } from './approval-message.js';
import type { MessagePayload } from '../kit/blocks.js';
import type { Verdict, RequestView, StatusLine } from './request-view.js';
import { orderText, type OrderResult } from './thread-status.js';
import type { QuestionView } from './person-question.js';

const APPROVED_OR_LATER = new Set(['approved', 'executing', 'unknown', 'submitted', 'completed', 'failed']);

/** The snapshot as the builders' RequestView (the shapes follow the snapshot field for field). */
export function viewOf(request: RequestRecord): RequestView {
  return request.snapshot;
}

/** How the request was decided; undefined while it waits for approvals. */
export function verdictOf(r: RequestRecord): Verdict | undefined {
  switch (r.state) {
    case 'rejected':
      return {
        outcome: 'rejected',
        by: r.decision?.by ?? 'unknown',
        at: r.decision?.at ?? r.updatedAt,
        reason: r.decision?.reason ?? '',
      };
    case 'cancelled':
      return { outcome: 'cancelled', by: r.decision?.by ?? r.requester, at: r.decision?.at ?? r.updatedAt };
    case 'expired':
      return { outcome: 'expired', at: r.decision?.at ?? r.updatedAt };
    default:
      return APPROVED_OR_LATER.has(r.state)
        ? { outcome: 'approved', at: r.execution?.approvedAt ?? r.updatedAt }
        : undefined;
  }
}

/** The order's result fields (verbatim strings) as the thread shows them. */
export function orderResultOf(r: RequestRecord): OrderResult | undefined {
  if (r.kind !== 'trade' || r.execution?.exchangeId == null) return undefined;
  const f = r.result ?? {};
  return {
    orderId: r.execution.exchangeId,
    status: r.remote?.status ?? 'submitted',
    price: f.price ?? null,
    priceCurrency: r.snapshot.kind === 'trade' ? (r.snapshot.symbol.split('-')[1] ?? null) : null,
    fee: f.fee ?? null,
    feeCurrency: f.feeCurrency ?? null,
    netAmount: f.netAmount ?? null,
    receivedCurrency: f.receivedCurrency ?? null,
  };
}

/** The execution status line under a decided request, following the record's state. */
export function statusOf(r: RequestRecord): StatusLine | undefined {
  const at = r.updatedAt;
  const explorer = r.remote?.linkExplorer ? { link: { url: r.remote.linkExplorer, label: 'explorer' } } : {};
  switch (r.state) {
    case 'approved':
      return r.execution?.scheduledAt != null
        ? { text: `Waiting: ${r.execution.scheduleReason ?? 'scheduled'} Executes when it ends`, tone: 'warning', at }
        : { text: 'Approved: executing', tone: 'progress', at };
    case 'executing':
      return { text: 'Executing on the exchange', tone: 'progress', at };
    case 'unknown':
      return r.execution?.inDoubt?.question
        ? {
            text: 'Outcome unknown: an approver must decide (below); the bot keeps looking on the exchange',
            tone: 'warning',
            at,
          }
        : {
            text: 'Outcome unknown: looking for it on the exchange; nothing is sent again meanwhile',
            tone: 'warning',
            at,
          };
    case 'submitted':
      return { text: `Status: ${remoteText(r)}`, tone: 'progress', at, ...explorer };
    case 'completed': {
      const order = orderResultOf(r);
      return { text: order ? `Completed: ${orderText(order)}` : 'Completed', tone: 'success', at, ...explorer };
    }
    case 'failed':
      return { text: `Failed: ${r.failure?.reason ?? 'no reason recorded'}`, tone: 'failure', at };
    default:
      return undefined;
  }
}

/** "pending (Travel Rule: pending, waiting for travel_rule_check)". */
export function remoteText(r: RequestRecord): string {
  const remote = r.remote;
  if (!remote) return 'submitted';
  const extra = [
    remote.travelRuleStatus ? `Travel Rule: ${remote.travelRuleStatus}` : '',
    remote.pendingReason ? `waiting for ${remote.pendingReason}` : '',
  ].filter(Boolean);
  return `${remote.status ?? 'submitted'}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

/** Above the buttons of a trade sent back for approval at a new price. */
export function reapprovalNotice(r: RequestRecord): string | undefined {
  if (r.state !== 'awaiting_reapproval' || r.snapshot.kind !== 'trade') return undefined;
  const before = r.pastRounds.at(-1)?.snapshot;
  const oldLimit = before?.kind === 'trade' ? before.limitPrice : undefined;
  const s = r.snapshot;
  return `Re-quoted at ${s.quote.price}, beyond the approved limit${oldLimit ? ` of ${oldLimit}` : ''}: nothing was ordered. Approvals start over (round ${r.round}) with the new limit ${s.limitPrice}.`;
}

/** Everything the approval message shows, from the record. */
export function approvalInput(r: RequestRecord, sandbox: boolean): ApprovalMessageInput {
  const decision = verdictOf(r);
  const status = statusOf(r);
  const notice = reapprovalNotice(r);
  const question = questionOf(r);
  const decisions = r.execution?.decisions ?? [];
  return {
    requestId: r.id,
    requesterId: r.requester,
    createdAt: r.createdAt,
    ...(decision ? {} : { expiresAt: r.expiresAt }),
    request: viewOf(r),
    snapshotHash: r.snapshotHash,
    requiredApprovals: r.requiredApprovals,
    approvals: r.approvals,
    ...(r.snapshot.rule ? { rule: r.snapshot.rule.name } : {}),
    ...(r.tally ? { tally: r.tally } : {}),
    ...(decision ? { verdict: decision } : r.actingDelegates ? { actingDelegates: r.actingDelegates } : {}),
    ...(status ? { status } : {}),
    ...(notice ? { notice } : {}),
    ...(question ? { question } : {}),
    ...(decisions.length > 0 ? { settlements: decisions } : {}),
    sandbox,
  };
}

/** The question a person must answer about this request's unknown outcome, if one is open. */
export function questionOf(r: RequestRecord): QuestionView | undefined {
  const question = r.state === 'unknown' ? r.execution?.inDoubt?.question : null;
  if (!question) return undefined;
  const s = r.snapshot;
  const currency = s.kind === 'crypto_withdrawal' ? s.asset : s.kind === 'fiat_withdrawal' ? s.currency : '';
  const sentAt = r.execution?.attempts[0]?.startedAt;
  return {
    requestId: r.id,
    question,
    what: r.kind === 'trade' ? 'order' : 'withdrawal',
    currency,
    ...(sentAt !== undefined ? { sentAt } : {}),
  };
}

/** The approval message for the record as it is now (buttons only while it waits for approvals). */
export function approvalMessageFor(r: RequestRecord, sandbox: boolean): MessagePayload {
  return approvalMessage(approvalInput(r, sandbox));
}

/** The same message without buttons: an ephemeral /desk status answer. */
export function statusMessageFor(r: RequestRecord, sandbox: boolean): MessagePayload {
  const payload = approvalMessageFor(r, sandbox);
  return { ...payload, blocks: payload.blocks.filter((b) => b.type !== 'actions') };
}
