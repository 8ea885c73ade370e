/**
 * PostgreSQL in vitest: one cluster per run (postgres-global.ts starts it), a database per test
 * that asks, and a `describe` that skips with one line where no server is installed.
 */
import { afterAll, beforeAll, describe, inject } from 'vitest';
import {
  joinPostgres,
  noPostgresReason,
  startPostgres,
  type ClusterOptions,
  type PgCluster,
} from './postgres-cluster.js';

export { noPostgresReason, startPostgres, type ClusterOptions, type PgCluster };

/** `describe`, or a skip naming why when there is no server. */
export function describePostgres(name: string, body: () => void): void {
  if (!noPostgresReason) {
    describe(name, body);
    return;
  }
  console.warn(`${name}: skipped, ${noPostgresReason}`);
  describe.skip(`${name}: skipped, ${noPostgresReason}`, body);
}

export interface UsePostgresOptions extends ClusterOptions {
  /** A cluster of the file's own, for a test that restarts or stops the server. */
  own?: boolean;
}

/**
 * The file's cluster: the run's shared one (its databases dropped after the file), or with `own` a
 * cluster started before the file's tests and stopped after. Read `cluster` inside tests and hooks only.
 */
export function usePostgres(options: UsePostgresOptions = {}): { readonly cluster: PgCluster } {
  const holder: { cluster?: PgCluster } = {};
  beforeAll(async () => {
    if (noPostgresReason) return;
    if (options.own) {
      holder.cluster = await startPostgres(options);
      return;
    }
    const shared = inject('postgres');
    if (!shared)
      throw new Error(
        'no shared PostgreSQL in this run: the file belongs to a vitest project with test/support/postgres-global.ts',
      );
    holder.cluster = joinPostgres(shared);
  }, 60_000);
  afterAll(async () => {
    await holder.cluster?.stop();
  });
  return {
    get cluster(): PgCluster {
      if (!holder.cluster) throw new Error('the PostgreSQL cluster is not started (use it inside tests or hooks)');
      return holder.cluster;
    },
  };
}
