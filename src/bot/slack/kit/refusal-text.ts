/** The ephemeral answers to a refused command or click, in plain words that say why. */
import { escapeMrkdwn } from './mrkdwn.js';

/**
 * Refusals decided in the Slack layer itself (who may use a command at all). Refusals of the
 * approval engine (own request, already approved, …) carry their own sentence
 * (domain/refusals.ts) and are shown with refusalReply.
 */
export type SlackRefusal = 'not_desk_member' | 'not_requester' | 'not_compliance';

const SLACK_REFUSAL: Record<SlackRefusal, string> = {
  not_desk_member: "This is for the desk's members only.",
  not_requester: "Only the desk's requesters can ask for withdrawals and trades.",
  not_compliance: 'Only compliance officers can submit counterparty declarations. The attempt was recorded.',
};

/** The ephemeral answer to a command or click the Slack layer refuses. */
export function refusalText(reason: SlackRefusal): string {
  return SLACK_REFUSAL[reason];
}

/** The ephemeral answer to a refusal with its own sentence (e.g. the engine's), escaped. */
export function refusalReply(message: string): string {
  return `:no_entry_sign: ${escapeMrkdwn(message, 1_000)}`;
}
