/**
 * How the bot reaches Slack: directly, or through HTTPS_PROXY (NO_PROXY honoured). @slack/web-api 8
 * takes a `fetch` and @slack/socket-mode 3 an undici `dispatcher` (they dropped `agent`); Node 20's
 * fetch reads no proxy variable, so the proxy is undici's EnvHttpProxyAgent, given our parsed values.
 *
 * Every Web API call goes through `fetch` here, so a Slack that cannot be reached is said once, in
 * one sentence naming what was tried and how, instead of the client's repeated
 * "http request failed fetch failed"; and said again when Slack answers after that.
 */
import { EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import type { webApi } from '@slack/bolt';
import type { SlackConfig } from '../../config/config.js';

type FetchFunction = NonNullable<webApi.WebClientOptions['fetch']>;

export interface SlackTransport {
  /** For every WebClient (clientOptions.fetch). */
  fetch: FetchFunction;
  /** For Socket Mode's connection; undefined: undici's default. */
  dispatcher: Dispatcher | undefined;
  /** "directly (HTTPS_PROXY unset)" or "through the proxy proxy.internal:3128": never the proxy's password. */
  route: string;
  /** Whether the last call reached Slack (any HTTP answer counts); undefined before the first. */
  reached(): boolean | undefined;
}

export function slackTransport(
  slack: Pick<SlackConfig, 'apiUrl' | 'proxy'>,
  say: { warn(m: string): void; info(m: string): void },
): SlackTransport {
  const dispatcher = slack.proxy
    ? new EnvHttpProxyAgent({
        httpsProxy: slack.proxy.url.reveal(),
        httpProxy: slack.proxy.url.reveal(),
        noProxy: slack.proxy.noProxy ?? '',
      })
    : undefined;
  const route = slack.proxy
    ? `through the proxy ${new URL(slack.proxy.url.reveal()).host} (HTTPS_PROXY)`
    : 'directly (HTTPS_PROXY unset)';
  const send: FetchFunction = dispatcher
    ? (url, init) => undiciFetch(url, { ...(init as object), dispatcher })
    : (url, init) => globalThis.fetch(url, init);
  let reached: boolean | undefined;
  return {
    dispatcher,
    route,
    reached: () => reached,
    fetch: async (url, init) => {
      try {
        const answer = await send(url, init);
        if (reached === false) say.info(`Slack answered again at ${slack.apiUrl}, reached ${route}`);
        reached = true;
        return answer;
      } catch (err) {
        if (reached !== false && !isAbort(err)) say.warn(unreachable(slack.apiUrl, route, err));
        if (!isAbort(err)) reached = false;
        throw err;
      }
    },
  };
}

/** The one sentence: what could not be reached, how it was tried, why, and what follows. */
export function unreachable(apiUrl: string, route: string, err: unknown): string {
  return `Slack could not be reached: ${apiUrl} ${route} failed (${causeOf(err)}); the bot keeps trying, and /readyz fails until Slack answers. Behind a proxy, set HTTPS_PROXY.`;
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message.slice(0, 120);
  return err instanceof Error ? err.message.slice(0, 120) : 'no answer';
}

/** Cancelled by its caller: says nothing about Slack (a timeout does: no answer in time). */
function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}
