/**
 * Every advisory lock the bot takes, as pairs of int4 keys (pg_advisory_xact_lock(int, int)). The
 * first key is a namespace of ours, so the locks cannot meet another application's on a shared
 * database; the two-key form never meets a one-key (bigint) lock either.
 *
 * Transaction-scoped (released by COMMIT or ROLLBACK, or when a dead session's connection closes):
 *   (DESK, 1)  schema migrations, one process at a time (migrate.ts)
 *   (DESK, 2)  the audit chain: one append transaction at a time across every process (audit-log.ts)
 *   (DESK, 4)  the key-value store: one group of writes at a time across every process (kv.ts)
 *   (RECORD, hashtext(store/id))  one mutate of a record at a time, also when the row does not exist yet
 * Session-scoped (held while the session lives):
 *   (DESK, 3)  leadership: the replica holding it does the background work (leadership.ts)
 */

/** "desk" in ASCII. */
export const DESK_LOCKS = 0x6465736b;
/** "desr" in ASCII: per-record locks, second key hashtext(store || '/' || id). */
export const RECORD_LOCKS = 0x64657372;

export const MIGRATIONS_LOCK = 1;
export const AUDIT_CHAIN_LOCK = 2;

export const LEADER_LOCK = 3;
export const KV_WRITES_LOCK = 4;
