/**
 * The process's one logger: JSON lines on stdout, filtered by LOG_LEVEL, with every configured
 * secret replaced by [redacted] as a last guard (the code never logs them on purpose; this makes
 * sure an exchange or Slack library quoting one by accident cannot leak it either).
 */
import type { LogLevel, Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from '../ports/logger.js';
import type { LogLevelName } from '../config/config.js';
import { makeTextRedactor, MIN_SECRET_LENGTH } from '../store/redact.js';

const RANK: Record<LogLevelName, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface ProcessLogger extends Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  /**
   * The same sink, shaped for Bolt (which logs variadic arguments). createSlackApp gives it to the
   * Slack libraries behind guardSlackLogger (slack/shell/library-log.ts), which keeps their debug lines
   * free of envelopes, payloads and Socket Mode tickets.
   */
  bolt(): BoltLogger;
  child(name: string): ProcessLogger;
}

export interface LoggerOptions {
  level: LogLevelName;
  /** Strings that must never be written (tokens, key hex). Empty strings are ignored. */
  secrets: readonly string[];
  write?: (line: string) => void;
  now?: () => number;
  name?: string;
}

/** A redacting JSON-lines logger. */
export function createLogger(options: LoggerOptions): ProcessLogger {
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const now = options.now ?? Date.now;
  // A secret too short to redact without hiding ordinary words is config's to refuse, not the log's.
  const redact = makeTextRedactor(options.secrets.filter((s) => s.length >= MIN_SECRET_LENGTH));
  const level = options.level;
  // Every string, key and error message is redacted as a value, before JSON escapes a quote or a backslash in it.
  const replacer = redactingReplacer(redact);

  const emit = (at: LogLevelName, message: string, data?: Record<string, unknown>, name = options.name) => {
    if (RANK[at] < RANK[level]) return;
    write(
      JSON.stringify(
        { t: new Date(now()).toISOString(), level: at, ...(name ? { name } : {}), msg: message, ...(data ?? {}) },
        replacer,
      ),
    );
  };

  const make = (name: string | undefined): ProcessLogger => ({
    debug: (m, d) => emit('debug', m, d, name),
    info: (m, d) => emit('info', m, d, name),
    warn: (m, d) => emit('warn', m, d, name),
    error: (m, d) => emit('error', m, d, name),
    child: (child) => make(name ? `${name}.${child}` : child),
    bolt: () => boltAdapter(name ?? 'slack'),
  });

  const boltAdapter = (name: string): BoltLogger => {
    const text = (args: unknown[]) =>
      args
        .map((a) =>
          typeof a === 'string' ? a : a instanceof Error ? `${a.name}: ${a.message}` : safeJson(a, replacer),
        )
        .join(' ');
    return {
      debug: (...a: unknown[]) => emit('debug', text(a), undefined, name),
      info: (...a: unknown[]) => emit('info', text(a), undefined, name),
      warn: (...a: unknown[]) => emit('warn', text(a), undefined, name),
      error: (...a: unknown[]) => emit('error', text(a), undefined, name),
      // Slack's WebClient calls setLevel(INFO) on the logger it is given: LOG_LEVEL is the operator's
      // choice for the whole process, so a library may not change it.
      setLevel: () => {},
      getLevel: () => level as unknown as LogLevel,
      setName: () => {},
    };
  };

  return make(options.name);
}

/**
 * A JSON.stringify replacer that redacts every string and every object key, and writes an Error
 * as its name and message only (never the cause chain: it can hold requests). Values with toJSON
 * (Secret, Date) arrive here already converted.
 */
function redactingReplacer(redact: (text: string) => string): (key: string, value: unknown) => unknown {
  return (_key, value) => {
    if (typeof value === 'string') return redact(value);
    if (value instanceof Error) return { name: value.name, message: value.message };
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.some((k) => redact(k) !== k))
        return Object.fromEntries(keys.map((k) => [redact(k), (value as Record<string, unknown>)[k]]));
    }
    return value;
  };
}

function safeJson(value: unknown, replacer: (key: string, value: unknown) => unknown): string {
  try {
    return JSON.stringify(value, replacer) ?? String(value);
  } catch {
    return String(value);
  }
}
