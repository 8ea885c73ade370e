// Every advisory lock the bot takes, as (namespace, key) int4 pairs that cannot meet another
// application's locks. Which lock guards what: docs/store.md "Advisory locks".

/** "desk" in ASCII. */
export const DESK_LOCKS = 0x6465736b;
/** "desr" in ASCII: per-record locks, second key hashtext(store || '/' || id). */
export const RECORD_LOCKS = 0x64657372;

export const MIGRATIONS_LOCK = 1;
export const AUDIT_CHAIN_LOCK = 2;

export const LEADER_LOCK = 3;
export const KV_WRITES_LOCK = 4;
/** mutateInScope: decisions over several records (the approval policy's limits), one at a time across replicas. */
export const SCOPE_LOCK = 5;
