/**
 * The Travel Rule declaration use case: a compliance officer says who sent a received deposit.
 * Only the compliance set may declare; every attempt is audited, refusals included. The
 * declaration is checked (declaration.ts) and the port sends it as the reference's object.
 *
 * Sent at most once per transaction: a marker is persisted before the call and an in-process
 * guard stops a redelivered or double-clicked submission while the first is in flight. The
 * exchange answers 422 "already exists" to a second declaration, so after an unknown outcome
 * (timeout, dropped connection, 5xx) sending again is safe and tells whether the first arrived.
 */
import { isExchangeError, type ExchangeError } from '../../ports/exchange-error.js';
import type { CounterpartyDeclaration, ExchangePort } from '../../ports/exchange-port.js';
import { isCompliance, type Policy } from '../../domain/policy.js';
import type { AuditLog, KeyValueStore } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { ComplianceNotices } from '../../ports/notifier.js';
import { checkDeclaration, type DeclarationErrors, type DeclarationForm } from './declaration.js';
import type { DeclarationDone } from '../../ports/events.js';
import { depositKey } from '../../ports/events.js';
import { errorText } from '../../domain/error-text.js';

export const DECLARATION_KEY_PREFIX = 'compliance:declaration:';

/** The marker kept per transaction id. */
export interface DeclarationMarker {
  state: 'sending' | 'done' | 'unknown';
  /** Slack user id, or `exchange` when the exchange said it already had a declaration we did not send. */
  by: string;
  at: number;
  /** The submission (modal) that sent it, so a redelivery of that same submission is answered alike. */
  submissionId?: string;
}

export interface DeclarationRequest extends DeclarationForm {
  /** Slack user id of the person submitting. */
  userId: string;
  /** Identifies one submission (e.g. the modal's view id): a redelivery of it after success answers `done` again. */
  submissionId?: string;
  /** Display name of the listed wallet chosen, for the confirmation; never sent. */
  walletLabel?: string;
}

export type DeclarationOutcome =
  | { kind: 'done'; transactionId: string; createsUnverifiedWallet: boolean; confirmedLate: boolean; replayed: boolean }
  | { kind: 'invalid'; errors: DeclarationErrors }
  | { kind: 'refused'; message: string }
  | { kind: 'already_declared'; transactionId: string; message: string; by?: string; at?: number }
  | { kind: 'in_flight'; transactionId: string; message: string }
  | { kind: 'rejected'; transactionId: string; message: string }
  | { kind: 'unknown'; transactionId: string; message: string };

export const DECLARE_MESSAGES = {
  notCompliance: 'Only compliance officers can submit counterparty declarations. The attempt was recorded.',
  notFound:
    "Transaction not found. Use the deposit's transaction id (shown on the deposit message), not the deposit id.",
  alreadyExists:
    'The exchange already has counterparty info for this transaction, and it cannot be changed through the API. Nothing was sent again.',
  alreadyDeclared: 'This transaction was already declared from here. Nothing was sent again.',
  inFlight: 'A declaration for this transaction is being submitted right now. Wait for its answer.',
  unknown:
    'The exchange did not confirm the declaration (no answer in time). Submit it again: if the first one arrived, the exchange says so and nothing changes.',
} as const;

export interface DeclarationDeps {
  exchange: Pick<ExchangePort, 'declareCounterparty'>;
  kv: KeyValueStore;
  audit: AuditLog;
  notices: ComplianceNotices;
  /** Who may declare: `policy.compliance` (COMPLIANCE_USER_IDS). */
  policy: Policy;
  clock: Pick<Clock, 'now'>;
  logger: Logger;
}

export interface Declarations {
  /** Check, guard, audit, send and map the exchange's answer. Never throws for an exchange answer. */
  declare(request: DeclarationRequest): Promise<DeclarationOutcome>;
  /**
   * Whether `userId` may open the declaration form; a refusal is audited. For the command and the
   * button, before any form is shown.
   */
  mayDeclare(userId: string, via: 'command' | 'button', transactionId?: string): Promise<boolean>;
  /** The marker of a transaction, if any (the form can say "already declared"). */
  marker(transactionId: string): Promise<DeclarationMarker | undefined>;
}

/** Build the use case over its ports. */
export function createDeclarations(deps: DeclarationDeps): Declarations {
  const { exchange, kv, audit, notices, policy, clock, logger } = deps;
  const inFlight = new Set<string>();
  const key = (tx: string) => `${DECLARATION_KEY_PREFIX}${tx.toLowerCase()}`;

  const refuse = async (userId: string, reason: string, data: Record<string, unknown>) => {
    await audit.append({ type: 'counterparty.refused', actor: userId, data: { reason, ...data } });
  };

  async function declare(req: DeclarationRequest): Promise<DeclarationOutcome> {
    const rawTx = req.transactionId?.trim() || null;
    if (!isCompliance(policy, req.userId)) {
      await refuse(req.userId, 'not_compliance', { transactionId: rawTx });
      return { kind: 'refused', message: DECLARE_MESSAGES.notCompliance };
    }
    const checked = checkDeclaration(req);
    if (!checked.ok) {
      await refuse(req.userId, 'invalid', { transactionId: rawTx, fields: checked.errors });
      return { kind: 'invalid', errors: checked.errors };
    }
    const { transactionId: tx, declaration, createsUnverifiedWallet } = checked.value;
    // Check and claim in one synchronous step: a second delivery cannot slip in between.
    if (inFlight.has(tx.toLowerCase())) {
      await refuse(req.userId, 'in_flight', { transactionId: tx });
      return { kind: 'in_flight', transactionId: tx, message: DECLARE_MESSAGES.inFlight };
    }
    inFlight.add(tx.toLowerCase());
    try {
      return await send(req, tx, declaration, createsUnverifiedWallet);
    } finally {
      inFlight.delete(tx.toLowerCase());
    }
  }

  async function send(
    req: DeclarationRequest,
    tx: string,
    declaration: CounterpartyDeclaration,
    createsUnverifiedWallet: boolean,
  ): Promise<DeclarationOutcome> {
    const previous = await kv.get<DeclarationMarker>(key(tx));
    if (previous?.state === 'done') {
      if (
        previous.submissionId !== undefined &&
        previous.submissionId === req.submissionId &&
        previous.by === req.userId
      ) {
        await audit.append({
          type: 'counterparty.duplicate',
          actor: req.userId,
          data: { transactionId: tx, submissionId: req.submissionId },
        });
        return { kind: 'done', transactionId: tx, createsUnverifiedWallet, confirmedLate: false, replayed: true };
      }
      await refuse(req.userId, 'already_declared', {
        transactionId: tx,
        declaredBy: previous.by,
        declaredAt: previous.at,
      });
      return {
        kind: 'already_declared',
        transactionId: tx,
        message: previous.by === 'exchange' ? DECLARE_MESSAGES.alreadyExists : DECLARE_MESSAGES.alreadyDeclared,
        by: previous.by,
        at: previous.at,
      };
    }
    // 'sending' without a flight in this process (a crash mid-call) or 'unknown': the outcome of
    // that call is not known, and sending again is how to learn it.
    const resend = previous !== undefined;
    const now = clock.now();
    await kv.set<DeclarationMarker>(key(tx), {
      state: 'sending',
      by: req.userId,
      at: now,
      ...(req.submissionId !== undefined ? { submissionId: req.submissionId } : {}),
    });
    await audit.append({
      type: 'counterparty.attempt',
      actor: req.userId,
      data: { transactionId: tx, declaration: audited(declaration), createsUnverifiedWallet, resend },
    });

    try {
      const result = await exchange.declareCounterparty(tx, declaration);
      return await accepted(req, tx, declaration, createsUnverifiedWallet, false, {
        status: 201,
        result: resultFacts(result),
      });
    } catch (err) {
      if (!isExchangeError(err)) {
        // Not an answer of the exchange (a bug of ours): whether it went out is unknown.
        await markUnknown(req, tx, 'internal', errorText(err));
        throw err;
      }
      return answered(req, tx, declaration, createsUnverifiedWallet, resend, err);
    }
  }

  async function answered(
    req: DeclarationRequest,
    tx: string,
    declaration: CounterpartyDeclaration,
    createsUnverifiedWallet: boolean,
    resend: boolean,
    err: ExchangeError,
  ): Promise<DeclarationOutcome> {
    const answer = { status: err.status ?? null, kind: err.kind, message: err.messages.join('; ') || null };
    if (err.kind === 'invalid_response' && err.status !== undefined && err.status >= 200 && err.status < 300) {
      // The exchange said 2xx; only its body was odd: the declaration is in.
      return accepted(req, tx, declaration, createsUnverifiedWallet, false, answer);
    }
    if (err.outcomeUnknown || err.kind === 'invalid_response') {
      await markUnknown(req, tx, err.kind, err.message);
      return { kind: 'unknown', transactionId: tx, message: DECLARE_MESSAGES.unknown };
    }
    if (err.kind === 'not_found') {
      await kv.set(key(tx), undefined);
      await audit.append({
        type: 'counterparty.answer',
        actor: 'exchange',
        data: { transactionId: tx, outcome: 'not_found', ...answer },
      });
      return { kind: 'invalid', errors: { transactionId: DECLARE_MESSAGES.notFound } };
    }
    if (err.refusal === 'counterparty_already_declared') {
      if (resend) {
        // Our earlier call's answer was lost, and this says it had arrived.
        return accepted(req, tx, declaration, createsUnverifiedWallet, true, {
          ...answer,
          outcome: 'already_exists_after_unknown',
        });
      }
      await kv.set<DeclarationMarker>(key(tx), { state: 'done', by: 'exchange', at: clock.now() });
      await audit.append({
        type: 'counterparty.answer',
        actor: 'exchange',
        data: { transactionId: tx, outcome: 'already_exists', ...answer },
      });
      return { kind: 'already_declared', transactionId: tx, message: DECLARE_MESSAGES.alreadyExists };
    }
    // Any other refusal: nothing was recorded at the exchange, so the person may correct and retry.
    await kv.set(key(tx), undefined);
    await audit.append({
      type: 'counterparty.answer',
      actor: 'exchange',
      data: { transactionId: tx, outcome: 'refused', ...answer },
    });
    return { kind: 'rejected', transactionId: tx, message: err.userMessage };
  }

  async function accepted(
    req: DeclarationRequest,
    tx: string,
    declaration: CounterpartyDeclaration,
    createsUnverifiedWallet: boolean,
    confirmedLate: boolean,
    answer: Record<string, unknown>,
  ): Promise<DeclarationOutcome> {
    const at = clock.now();
    await kv.set<DeclarationMarker>(key(tx), {
      state: 'done',
      by: req.userId,
      at,
      ...(req.submissionId !== undefined ? { submissionId: req.submissionId } : {}),
    });
    await audit.append({
      type: 'counterparty.answer',
      actor: 'exchange',
      data: { transactionId: tx, outcome: 'done', ...answer },
    });
    const w = declaration.wallet;
    const done: DeclarationDone = {
      transactionId: tx,
      userId: req.userId,
      at,
      entityType: declaration.entityType,
      entityName: declaration.legalName,
      ownership: declaration.ownership,
      ...(w !== undefined && 'id' in w
        ? {
            wallet: {
              kind: 'listed' as const,
              id: w.id,
              ...(req.walletLabel?.trim() ? { label: req.walletLabel.trim() } : {}),
            },
          }
        : w !== undefined
          ? { wallet: { kind: 'unlisted' as const, name: w.name } }
          : {}),
      createsUnverifiedWallet,
      confirmedLate,
    };
    try {
      await notices.append([{ type: 'declaration.done', requestId: depositKey(tx), at: clock.now(), done }]);
    } catch (err) {
      // The declaration stands; only its Slack echo could not be written to the outbox.
      logger.warn('declaration notification failed', { transactionId: tx, error: errorText(err) });
    }
    return { kind: 'done', transactionId: tx, createsUnverifiedWallet, confirmedLate, replayed: false };
  }

  async function markUnknown(req: DeclarationRequest, tx: string, kind: string, detail: string): Promise<void> {
    await kv.set<DeclarationMarker>(key(tx), {
      state: 'unknown',
      by: req.userId,
      at: clock.now(),
      ...(req.submissionId !== undefined ? { submissionId: req.submissionId } : {}),
    });
    await audit.append({
      type: 'counterparty.answer',
      actor: 'exchange',
      data: { transactionId: tx, outcome: 'unknown', kind, detail },
    });
  }

  return {
    declare,
    async mayDeclare(userId, via, transactionId) {
      if (isCompliance(policy, userId)) return true;
      await refuse(userId, 'not_compliance', { via, transactionId: transactionId ?? null });
      return false;
    },
    marker: (transactionId) => kv.get<DeclarationMarker>(key(transactionId)),
  };
}

/**
 * The declaration as audited: everything sent except the identity document number, of which only the
 * last four characters are kept (the exchange holds the full number; the audit need not).
 */
function audited(declaration: CounterpartyDeclaration): CounterpartyDeclaration {
  const doc = declaration.documentNumber;
  if (doc === undefined) return declaration;
  const masked = doc.length <= 4 ? '*'.repeat(doc.length) : `${'*'.repeat(doc.length - 4)}${doc.slice(-4)}`;
  return { ...declaration, documentNumber: masked };
}

/** The 201 body's fields are not shown: keep its id and status when it has them. */
function resultFacts(result: Record<string, unknown>): Record<string, unknown> {
  const pick = (k: string) =>
    typeof result[k] === 'string' || typeof result[k] === 'number' ? { [k]: result[k] } : {};
  return { ...pick('id'), ...pick('status') };
}
