// What Slack must say before go-live: token accepted, bot in the approval and compliance channels,
// every configured person a real active user. Slack's error codes named as sent, each with its fix.
import { failed, passed, type DoctorCheck, type Outcome } from './doctor.js';

/** A Web API call: resolves with Slack's answer when ok, rejects with its error code (`data.error`) otherwise. */
export type SlackCall = (method: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface SlackSetup {
  approvalChannel: string;
  complianceChannel: string | undefined;
  /** Each configured user id with the variable that names it. */
  users: ReadonlyArray<{ id: string; variable: string }>;
  /** How Slack is reached, for a failure to reach it: "https://slack.com/api/ directly (HTTPS_PROXY unset)". */
  route: string;
}

const SCOPES_FIX =
  'add the scope in OAuth & Permissions → Bot Token Scopes (manifests/manifest.json lists them) and reinstall the app';

export function slackChecks(call: SlackCall, desk: SlackSetup): DoctorCheck[] {
  const channels = [
    { id: desk.approvalChannel, variable: 'APPROVAL_CHANNEL_ID', what: 'approval channel' },
    ...(desk.complianceChannel
      ? [{ id: desk.complianceChannel, variable: 'COMPLIANCE_CHANNEL_ID', what: 'compliance channel' }]
      : []),
  ];
  return [
    { name: 'Slack token', run: () => tokenCheck(call, desk.route) },
    ...channels.map((c) => ({ name: `${c.what} ${c.id}`, run: () => channelCheck(call, c, desk.route) })),
    ...desk.users.map((u) => ({ name: `user ${u.id} (${u.variable})`, run: () => userCheck(call, u, desk.route) })),
  ];
}

async function tokenCheck(call: SlackCall, route: string): Promise<Outcome> {
  try {
    const a = await call('auth.test', {});
    return passed(
      `auth.test accepted it: bot @${String(a.user)} (${String(a.user_id)}) in ${String(a.team)} (${String(a.team_id)})`,
    );
  } catch (err) {
    const code = slackError(err);
    if (code === 'invalid_auth' || code === 'not_authed')
      return failed(
        `Slack refused the token (${code})`,
        'set SLACK_BOT_TOKEN to the Bot User OAuth Token (xoxb-…) from OAuth & Permissions of this app',
      );
    if (code === 'account_inactive' || code === 'token_revoked' || code === 'token_expired')
      return failed(
        `the token no longer works (${code})`,
        'reinstall the app to the workspace and set SLACK_BOT_TOKEN to the new token',
      );
    return unanswered(code, err, route);
  }
}

async function channelCheck(call: SlackCall, c: { id: string; variable: string }, route: string): Promise<Outcome> {
  try {
    const { channel } = (await call('conversations.info', { channel: c.id })) as {
      channel: { name?: string; is_member?: boolean; is_archived?: boolean };
    };
    if (channel.is_archived)
      return failed(`#${channel.name} is archived`, `unarchive it, or set ${c.variable} to another channel`);
    if (!channel.is_member)
      return failed(`the bot is not in #${channel.name}`, `invite it: in #${channel.name}, /invite @the bot`);
    return passed(`#${channel.name}, the bot is in it`);
  } catch (err) {
    const code = slackError(err);
    if (code === 'channel_not_found')
      return failed(
        `no channel ${c.id} that the bot can see (channel_not_found: a wrong id, another workspace, or a private channel without the bot)`,
        `set ${c.variable} to the id from channel details → About → Channel ID, and /invite the bot`,
      );
    if (code === 'missing_scope')
      return failed('the token may not read channels (missing_scope: channels:read, groups:read)', SCOPES_FIX);
    return unanswered(code, err, route);
  }
}

async function userCheck(call: SlackCall, u: { id: string; variable: string }, route: string): Promise<Outcome> {
  try {
    const { user } = (await call('users.info', { user: u.id })) as {
      user: { real_name?: string; deleted?: boolean; is_bot?: boolean };
    };
    const who = user.real_name ? `${user.real_name}` : u.id;
    if (user.deleted)
      return failed(`${who} is deactivated`, `remove ${u.id} from ${u.variable}, or reactivate the account`);
    if (user.is_bot)
      return failed(
        `${who} is a bot, not a person`,
        `remove ${u.id} from ${u.variable}: only people may request or approve`,
      );
    return passed(`${who}, an active person`);
  } catch (err) {
    const code = slackError(err);
    if (code === 'user_not_found')
      return failed(
        `no user ${u.id} in this workspace (user_not_found)`,
        `fix ${u.variable}: copy the member id from the person's profile (⋮ → Copy member ID)`,
      );
    if (code === 'missing_scope') return failed('the token may not read users (missing_scope: users:read)', SCOPES_FIX);
    return unanswered(code, err, route);
  }
}

function unanswered(code: string, err: unknown, route: string): Outcome {
  if (code === 'unreachable')
    return failed(
      `Slack could not be reached: ${route} failed (${causeOf(err)})`,
      'check the network, SLACK_API_URL, and HTTPS_PROXY if this machine needs a proxy',
    );
  return failed(`Slack answered ${code}`, "see Slack's documentation of that error for this method");
}

/** The network's reason under the Web API client's request error (ENOTFOUND, ECONNREFUSED, …). */
function causeOf(err: unknown): string {
  const original = (err as { original?: { cause?: { code?: unknown }; message?: unknown } }).original;
  if (typeof original?.cause?.code === 'string') return original.cause.code;
  return typeof original?.message === 'string' ? original.message.slice(0, 120) : 'no answer';
}

/** Slack's error code from a Web API failure ("unreachable" when no answer came). */
export function slackError(err: unknown): string {
  const e = err as { code?: unknown; data?: { error?: unknown } };
  if (typeof e.data?.error === 'string') return e.data.error;
  if (e.code === 'slack_webapi_request_error' || e.code === 'slack_webapi_http_error') return 'unreachable';
  return err instanceof Error ? err.name : 'unknown';
}
