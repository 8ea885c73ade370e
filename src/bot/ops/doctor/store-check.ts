// The data folder is writable by the bot's user only, or the database answers with a schema this
// build can use (pending migrations are applied at the next start).
import { failed, passed, type DoctorCheck, type Outcome } from './doctor.js';

export type StoreProbe =
  | {
      kind: 'files';
      dir: string;
      probe: () => Promise<{ writable: true; mode: number } | { writable: false; code: string }>;
    }
  | { kind: 'database'; where: string; probe: () => Promise<{ pending: readonly number[] }> };

export function storeCheck(store: StoreProbe): DoctorCheck {
  return {
    name: store.kind === 'files' ? `store ${store.dir}` : `store ${store.where}`,
    run: () => (store.kind === 'files' ? files(store) : database(store)),
  };
}

async function files(s: Extract<StoreProbe, { kind: 'files' }>): Promise<Outcome> {
  const r = await s.probe();
  if (!r.writable)
    return failed(
      `the data folder cannot be created or written (${r.code})`,
      `give the bot's user a folder it owns (chown, chmod 700) or set DATA_DIR to one`,
    );
  if ((r.mode & 0o077) !== 0)
    return failed(
      `other users may read it (mode ${(r.mode & 0o777).toString(8)}): it holds the requests and the audit log`,
      `chmod 700 ${s.dir}`,
    );
  return passed(`writable, only by this user (mode ${(r.mode & 0o777).toString(8)})`);
}

async function database(s: Extract<StoreProbe, { kind: 'database' }>): Promise<Outcome> {
  try {
    const { pending } = await s.probe();
    return passed(
      pending.length === 0
        ? 'reachable, schema up to date'
        : `reachable; migration${pending.length === 1 ? '' : 's'} ${pending.join(', ')} will be applied at the bot's next start (its user needs CREATE on the database)`,
    );
  } catch (err) {
    // SchemaMismatchError's message says what to run; a connection error's text may hold a host, never the password (pg does not print it).
    if (err instanceof Error && err.name === 'SchemaMismatchError')
      return failed(`the schema cannot be used by this build: ${err.message}`, 'as said');
    return failed(
      `the database did not answer (${(err as { code?: string }).code ?? (err instanceof Error ? err.name : 'error')})`,
      'check DATABASE_URL, the network, and that PostgreSQL is up and accepts this user',
    );
  }
}
