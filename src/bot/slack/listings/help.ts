/** /desk help: what each command does, in the words a trader would use. */
import { context, header, message, section, type MessagePayload } from '../kit/blocks.js';
import { code } from '../kit/mrkdwn.js';
import { PENDING_PAGE_SIZE } from './pending-list.js';

export const DESK_HELP_LINES = [
  '`/withdraw` · ask for a crypto or fiat withdrawal (`/withdraw crypto`, `/withdraw fiat`)',
  '`/trade [BTC-SGD]` · ask for an RFQ trade with a worst acceptable price',
  '`/balances [ASSET]` · available, locked and total balances',
  `\`/desk pending [page]\` · requests waiting for approval, ${PENDING_PAGE_SIZE} to a page`,
  '`/desk status <request id>` · where one request stands',
  '`/desk withdrawals` · `/desk deposits` · `/desk orders` · recent records on the exchange',
  '`/desk fiat` · fiat deposits, withdrawals, fees and limits',
  '`/desk banks` · bank accounts; `/desk remove-bank <id>` asks for approval to remove one',
  '`/desk policy` · the approval policy: rules, groups and the room left under each limit',
  '`/desk delegate @name until 2026-12-24` · who approves in your place while you are away (approvers); `/desk delegate` shows it, `/desk delegate end` ends it',
  '`/desk 2fa` · enroll an authenticator app for approvals that ask for a code (approvers)',
  '`/counterparty [transaction id]` · declare who sent a deposit (compliance)',
] as const;

/** `approvals` is what the policy says (kit/policy-words.ts approvalsSentence). */
export function deskHelp(approvals: string, unknownSubcommand?: string): MessagePayload {
  const blocks = [header('Desk Bot'), section(DESK_HELP_LINES.join('\n')), context([approvals])];
  const lead = unknownSubcommand === undefined ? 'Desk Bot commands' : `Unknown /desk command. Desk Bot commands`;
  if (unknownSubcommand !== undefined)
    blocks.unshift(section(`I don't know ${code(`/desk ${unknownSubcommand}`, 60)}. Here is what I can do:`));
  return message(lead, blocks);
}
