// The HTTP-mode manifest: manifests/manifest.json with Socket Mode off and every request URL at /slack/events.

/** The path every Slack request goes to (Bolt's default endpoint, the one the receiver serves). */
export const EVENTS_PATH = '/slack/events';

/** The parts of Slack's manifest this rewrites; the rest is carried through untouched. */
export interface AppManifest {
  features: { slash_commands?: { url?: string }[] } & Record<string, unknown>;
  settings: {
    socket_mode_enabled?: boolean;
    event_subscriptions?: { request_url?: string } & Record<string, unknown>;
    interactivity?: { request_url?: string; message_menu_options_url?: string } & Record<string, unknown>;
  } & Record<string, unknown>;
}

export class PublicUrlError extends Error {
  override name = 'PublicUrlError';
}

/** The operator's public URL (path prefix kept, behind a proxy) plus /slack/events unless already there. Slack calls only https. */
export function eventsUrl(publicUrl: string): string {
  let url: URL;
  try {
    url = new URL(publicUrl.trim());
  } catch {
    throw new PublicUrlError(
      `"${publicUrl}" is not a URL: give the bot's public https address, like https://desk.example.com`,
    );
  }
  if (url.protocol !== 'https:')
    throw new PublicUrlError(`Slack sends requests only to https:// URLs, not ${url.protocol}//`);
  if (url.search || url.hash || url.username || url.password) {
    throw new PublicUrlError(
      'the URL must have no query, fragment or credentials: give the origin (and path prefix) Slack should call',
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(EVENTS_PATH) ? path : `${path}${EVENTS_PATH}`;
  return url.href;
}

/** A copy of `manifest` for HTTP mode at `publicUrl`: Socket Mode off, every URL filled. */
export function httpManifest<M extends AppManifest>(manifest: M, publicUrl: string): M {
  const url = eventsUrl(publicUrl);
  const out = structuredClone(manifest);
  out.settings.socket_mode_enabled = false;
  for (const command of out.features.slash_commands ?? []) command.url = url;
  if (out.settings.event_subscriptions) out.settings.event_subscriptions.request_url = url;
  if (out.settings.interactivity) {
    out.settings.interactivity.request_url = url;
    out.settings.interactivity.message_menu_options_url = url;
  }
  return out;
}
