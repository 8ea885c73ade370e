/**
 * The one place where listeners are registered: every command, action, view, options and event
 * listener of the app, each a plain function of the SlackContext in its own file.
 */
import type {
  App,
  BlockAction,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewMiddlewareArgs,
} from '@slack/bolt';
import { ACTION, baseBlockId, CALLBACK, COMMAND, INPUT, type CommandName } from '../kit/slack-ids.js';
import type { SlackContext } from '../kit/slack-context.js';
import type { AckGate } from './ack-gate.js';
import { balancesCommand } from '../listings/balances-command.js';
import { deskCommand } from '../listings/desk-command.js';
import { listMoreAction } from '../listings/list-more.js';
import { approveAction } from '../approvals/approve-button.js';
import { cancelAction } from '../approvals/cancel-button.js';
import { walletSearchOptions } from '../compliance/wallet-search.js';
import { appHomeOpened } from '../home/app-home-opened.js';
import { withdrawCommand } from '../withdrawals/withdraw-command.js';
import { withdrawChooseAction } from '../withdrawals/withdraw-choose.js';
import { withdrawRefreshAction } from '../withdrawals/withdraw-refresh.js';
import { withdrawSubmitView } from '../withdrawals/withdraw-submit.js';
import { tradeCommand } from '../trades/trade-command.js';
import { tradeRefreshAction } from '../trades/trade-refresh.js';
import { tradeSubmitView } from '../trades/trade-submit.js';
import { counterpartyCommand } from '../compliance/counterparty-command.js';
import { declareCounterpartyAction } from '../compliance/declare-button.js';
import { submitDeclarationView } from '../compliance/submit-declaration.js';
import { rejectAction } from '../approvals/reject-button.js';
import { rejectSubmitView } from '../approvals/reject-submit.js';
import { settleAction } from '../approvals/settle-buttons.js';
import { settleSubmit } from '../approvals/settle-submit.js';
import { enrollSubmitView } from '../step-up/enroll-submit.js';
import { approveSubmitView } from '../step-up/approve-submit.js';

type Factory<Args> = (ctx: SlackContext) => Middleware<Args>;

/** Every slash command's listener; the keys equal the manifest's commands (tested). */
export const COMMAND_LISTENERS: Record<CommandName, Factory<SlackCommandMiddlewareArgs>> = {
  [COMMAND.withdraw]: withdrawCommand,
  [COMMAND.trade]: tradeCommand,
  [COMMAND.balances]: balancesCommand,
  [COMMAND.desk]: deskCommand,
  [COMMAND.counterparty]: counterpartyCommand,
};

/** Listeners of block_actions, by action_id. */
export const ACTION_LISTENERS: Record<string, Factory<SlackActionMiddlewareArgs<BlockAction>>> = {
  [ACTION.listMore]: listMoreAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.approve]: approveAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.reject]: rejectAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.cancel]: cancelAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.declareCounterparty]: declareCounterpartyAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.withdrawChooseCrypto]: withdrawChooseAction('crypto') as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.withdrawChooseFiat]: withdrawChooseAction('fiat') as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [INPUT.withdrawEntry]: withdrawRefreshAction,
  [INPUT.withdrawAmount]: withdrawRefreshAction,
  [INPUT.fiatCurrency]: withdrawRefreshAction,
  [INPUT.fiatAmount]: withdrawRefreshAction,
  [INPUT.tradePair]: tradeRefreshAction,
  [INPUT.tradeSide]: tradeRefreshAction,
  [INPUT.tradeQuantity]: tradeRefreshAction,
  [INPUT.tradeQuantityCurrency]: tradeRefreshAction,
  [INPUT.tradePaymentMethod]: tradeRefreshAction,
  [ACTION.tradeRefreshQuote]: tradeRefreshAction,
  [ACTION.lookAgain]: settleAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.sendAgain]: settleAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.markNotSent]: settleAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.markNotPlaced]: settleAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.chooseCandidate]: settleAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
  [ACTION.noneOfThese]: settleAction as Factory<SlackActionMiddlewareArgs<BlockAction>>,
};

/** Listeners of view_submission, by callback_id. */
export const VIEW_LISTENERS: Record<string, Factory<SlackViewMiddlewareArgs>> = {
  [CALLBACK.withdrawCrypto]: withdrawSubmitView('crypto'),
  [CALLBACK.withdrawFiat]: withdrawSubmitView('fiat'),
  [CALLBACK.trade]: tradeSubmitView,
  [CALLBACK.rejectReason]: rejectSubmitView,
  [CALLBACK.settle]: settleSubmit,
  [CALLBACK.counterparty]: submitDeclarationView,
  [CALLBACK.stepUpEnroll]: enrollSubmitView,
  [CALLBACK.stepUpApprove]: approveSubmitView,
};

/** Listeners of block_suggestion (external_select options), by action_id. */
export const OPTIONS_LISTENERS: Record<string, Factory<SlackOptionsMiddlewareArgs<'block_suggestion'>>> = {
  [INPUT.cpWallet]: walletSearchOptions,
};

/**
 * After its ack, a listener lets the other requests get their acks before it goes on with its
 * own work (ack-gate.ts): under a burst every acknowledgement leaves first.
 */
function ackFirst<Args extends { ack: (...a: never[]) => Promise<void> }>(
  gate: AckGate,
  listener: Middleware<Args>,
): Middleware<Args> {
  return (args) => {
    const ack = (async (...a: Parameters<Args['ack']>) => {
      await args.ack(...a);
      await gate.clear();
    }) as Args['ack'];
    return listener({ ...args, ack });
  };
}

/**
 * One Bolt listener per kind of request, routing by name here. Bolt runs the matchers of every
 * registered listener for every request, each with its own copy of the request's arguments; with
 * one listener per command, action and view (about thirty) that was a fifth of a millisecond per
 * request on the acknowledgement path. A name with no listener is left unacknowledged, as Bolt
 * does when nothing matches.
 */
function dispatch<Args>(
  ctx: SlackContext,
  table: Record<string, Factory<Args>>,
  nameOf: (args: Args) => string,
  wrap: (m: Middleware<Args>) => Middleware<Args>,
): Middleware<Args> {
  const byName = new Map(Object.entries(table).map(([name, factory]) => [name, wrap(factory(ctx))]));
  return async (args) => {
    await byName.get(nameOf(args))?.(args);
  };
}

/** Register everything on a Bolt app. */
export function registerListeners(app: App, ctx: SlackContext, gate: AckGate): void {
  const gated = <Args extends { ack: (...a: never[]) => Promise<void> }>(m: Middleware<Args>) => ackFirst(gate, m);
  app.command(
    /^\//,
    dispatch(ctx, COMMAND_LISTENERS, (a) => a.command.command, gated),
  );
  // An action id may carry ":n" to stay unique within its block (a button per candidate).
  app.action(
    { type: 'block_actions' },
    dispatch(ctx, ACTION_LISTENERS, (a) => baseBlockId(a.action.action_id), gated),
  );
  app.view(
    { type: 'view_submission' },
    dispatch(ctx, VIEW_LISTENERS, (a) => a.view.callback_id, gated),
  );
  app.options(
    { type: 'block_suggestion' },
    dispatch(
      ctx,
      OPTIONS_LISTENERS,
      (a) => a.payload.action_id,
      (m) => m,
    ),
  );
  app.event('app_home_opened', appHomeOpened(ctx));
}
