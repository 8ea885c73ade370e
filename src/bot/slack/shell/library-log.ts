/**
 * What the Slack libraries (Bolt 5, @slack/socket-mode 3, @slack/web-api 8) may write to our log.
 * createSlackApp hands them every logger through guardSlackLogger, so this holds whichever logger
 * the caller gave (the process logger's bolt() in production, a console one otherwise).
 *
 * Why: at debug level the libraries print payloads verbatim. Socket Mode prints every incoming
 * envelope raw ("Received a message on the WebSocket: {…}"): a counterparty declaration carries a
 * legal name, document number and address, and every envelope carries Slack's verification token.
 * The acks we send back (a modal update) and the Web API's request bodies and results (messages,
 * modals, and apps.connections.open's wss:// URL whose `ticket` opens a Socket Mode connection for
 * our app) are printed the same way. Debug logs must carry no personal data and no tickets.
 *
 * The rule, for lines coming through the guard:
 * - debug: a line is written only when it matches one of the library's debug formats known to hold
 *   no payload (fixed text, or method names, numbers, connection states). A format known to end in
 *   a payload is written with that payload replaced by [withheld] (so "an envelope arrived" or "the
 *   API answered" still shows). Anything else, including a non-string argument and a format a later
 *   library version adds, is dropped: an unknown debug line is assumed to carry a payload.
 * - info, warn, error: written. The libraries' lines at these levels name a failure, a method or a
 *   count, never a payload (and our listeners log through the same logger, app.logger, at these
 *   levels only).
 * - every level: a ws:// or wss:// URL, and any `ticket=` parameter, is replaced by [withheld].
 * The formats are copied from the libraries' dist files named beside them; test/bot/slack/shell/library-log.int.test.ts
 * runs the libraries' own code paths through the guard.
 */
import type { Logger, LogLevel } from '@slack/bolt';
import type { LogLevelName } from '../../config/config.js';

export const WITHHELD = '[withheld]';

/** Debug formats whose every variable part is a name, a number or a state: written as they are. */
const SAFE_DEBUG: readonly RegExp[] = [
  // @slack/web-api dist/WebClient.js
  /^The logLevel given to WebClient was ignored as you also gave logger$/,
  /^initialized$/,
  /^apiCall\('[\w.]+'\) (start|end)$/,
  /^files\.uploadV2\(\) start$/,
  /^http request url: https?:\/\/[\w.:/-]+$/,
  /^http response received$/,
  /^Request arguments contain binary data$/,
  // @slack/socket-mode dist/src/SocketModeClient.js
  /^The logLevel given to Socket Mode was ignored as you also gave logger$/,
  /^The Socket Mode client has successfully initialized$/,
  /^Starting Socket Mode session \.\.\.$/,
  /^Manually disconnecting this Socket Mode client$/,
  /^Before trying to reconnect, this client will wait for \d+ milliseconds$/,
  /^Client shutting down, will not attempt reconnect\.$/,
  /^Continuing with reconnect\.\.\.$/,
  /^Going to retrieve a new WSS URL \.\.\.$/,
  /^Unexpected binary message received, ignoring\.$/,
  /^Received "disconnect" \([\w-]*\) message - disconnecting\.( Will reconnect\.)?$/,
  /^send\(\) method was called \(WebSocket state: \w+\)$/,
  // @slack/socket-mode dist/src/SlackWebSocket.js
  /^Initiating new WebSocket connection\.$/,
  /^WebSocket open event received \(connection established\)!$/,
  /^WebSocket close frame received \(code: \d+, reason: [\w .,:'-]{0,123}\)$/,
  /^Terminating WebSocket \(close frame (received|sent but no response, force-terminating)\)\.$/,
  /^Sending close frame \(status=1000\)\.$/,
  /^WebSocket already disconnected, flushing remainder\.$/,
  /^isActive\(\): websocket (not instantiated!|ready state is \w+)$/,
  /^Sent ping to Slack: Ping from client \(\d+\)$/,
  /^Started monitoring pings to and pongs from Slack\.$/,
  // @slack/bolt dist/App.js, receivers/*.js
  /^Initializing (SocketModeReceiver|HTTPReceiver)$/,
  /^stored response sent$/,
  /^Listening for HTTP requests on port \d+$/,
];

/**
 * Debug formats that end in a payload: the part matched here is written, then [withheld] and the
 * format's closing text. An error's text is kept where the library prints one (a name and a
 * message, as in the error lines the process writes anyway); the response stored beside it is not.
 */
const PAYLOAD_DEBUG: ReadonlyArray<readonly [RegExp, string]> = [
  // @slack/socket-mode dist/src/SocketModeClient.js: the envelope raw, before parsing; an envelope
  // that does not parse (the parse error quotes it); the ack we send (a modal update, errors).
  [/^Received a message on the WebSocket: /, ''],
  [/^Unable to parse an incoming WebSocket message \(will ignore\): /, ''],
  [/^Calling ack\(\) - type: \w+, envelope_id: [\w-]+, data: /, ''],
  [/^Sending a WebSocket message: /, ''],
  // @slack/web-api dist/WebClient.js: what we send (messages, modals) and what Slack answers
  // (the same, and apps.connections.open's ticket URL). Headers: nothing of ours to learn there.
  [/^http request body: /, ''],
  [/^http request headers: /, ''],
  [/^http request result: /, ''],
  // @slack/web-api dist/chat-stream.js
  [/^ChatStreamer appended to buffer: /, ''],
  // @slack/bolt dist/receivers/SocketModeResponseAck.js and HTTPResponseAck.js: the ack's body.
  [/^ack\(\) (call begins|response stored|response sent) \(body: /, ')'],
  // @slack/bolt dist/receivers/HTTPModuleFunctions.js, AwsLambdaReceiver.js: the stored ack body.
  [/^Error details: .*?, storedResponse: /s, ''],
  [/^AWS event: /, ''],
];

/** @slack/bolt receivers: the error's text, then what the library knows of the delivery (numbers). */
const ERROR_DETAILS = /^Error details: [^\n]*?(, retry num: \w+, retry reason: [\w-]+)?$/;

const SOCKET_URL = /\bwss?:\/\/[^\s"'<>()\\]+/gi;
const TICKET = /([?&]ticket=)[^&\s"'<>()\\]+/gi;

/** Replaces Socket Mode connection URLs and any ticket parameter with [withheld]. */
export function withoutTickets(text: string): string {
  return text
    .replace(SOCKET_URL, (url) => `${url.slice(0, url.indexOf('//') + 2)}${WITHHELD}`)
    .replace(TICKET, `$1${WITHHELD}`);
}

/** The text a Slack library debug line may be written as, or undefined when it must not be written. */
export function slackDebugLine(args: readonly unknown[]): string | undefined {
  const [first] = args;
  if (args.length !== 1 || typeof first !== 'string') return undefined;
  if (SAFE_DEBUG.some((re) => re.test(first))) return withoutTickets(first);
  for (const [re, closing] of PAYLOAD_DEBUG) {
    const m = re.exec(first);
    if (m) return `${withoutTickets(m[0])}${WITHHELD}${closing}`;
  }
  if (ERROR_DETAILS.test(first)) return withoutTickets(first);
  return undefined;
}

/** A Slack library line at info, warn or error, as one string. */
export function slackLine(args: readonly unknown[]): string {
  return withoutTickets(args.map(argText).join(' '));
}

function argText(a: unknown): string {
  if (typeof a === 'string') return a;
  if (a instanceof Error) return `${a.name}: ${a.message}`;
  try {
    return JSON.stringify(a) ?? String(a);
  } catch {
    return String(a);
  }
}

/**
 * `inner` as the Slack libraries may use it: each line goes through the rule above and reaches
 * `inner` as one string, or not at all. The level stays the one `inner` was built with: Bolt and
 * the WebClient call setLevel on the logger they are given, and LOG_LEVEL is the operator's.
 */
export function guardSlackLogger(inner: Logger): Logger {
  return {
    debug: (...a: unknown[]) => {
      const line = slackDebugLine(a);
      if (line !== undefined) inner.debug(line);
    },
    info: (...a: unknown[]) => inner.info(slackLine(a)),
    warn: (...a: unknown[]) => inner.warn(slackLine(a)),
    error: (...a: unknown[]) => inner.error(slackLine(a)),
    setLevel: () => {},
    getLevel: () => inner.getLevel(),
    setName: () => {},
  };
}

const RANK: Record<LogLevelName, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * For callers that give createSlackApp no logger (tests, tools): the console at `level`, in place of
 * the ConsoleLogger Bolt would otherwise build for itself (which the guard would not cover).
 */
export function consoleSlackLogger(level: LogLevelName): Logger {
  const at =
    (l: LogLevelName) =>
    (...a: unknown[]) => {
      if (RANK[l] >= RANK[level]) console[l](`[${l.toUpperCase()}] slack`, ...a);
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    setLevel: () => {},
    getLevel: () => level as unknown as LogLevel,
    setName: () => {},
  };
}
