/**
 * PostgreSQL in vitest: one throwaway cluster per test file (postgres-cluster.ts), and a
 * `describe` that skips with one line where no server is installed.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { noPostgresReason, startPostgres, type ClusterOptions, type PgCluster } from './postgres-cluster.js';

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

/**
 * One cluster for the test file: started before its tests, stopped after. Read `cluster` inside
 * tests and hooks only (it is set by beforeAll).
 */
export function usePostgres(options: ClusterOptions = {}): { readonly cluster: PgCluster } {
  const holder: { cluster?: PgCluster } = {};
  beforeAll(async () => {
    if (!noPostgresReason) holder.cluster = await startPostgres(options);
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
