/**
 * vitest globalSetup: one PostgreSQL cluster for the whole run, started only when a project that
 * lists this file has tests to run, shared by every such project, stopped after the last.
 * Test files reach it through `usePostgres()` (postgres.ts), each with databases of its own.
 */
import type { TestProject } from 'vitest/node';
import { noPostgresReason, startPostgres, type PgAddress, type PgCluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PgAddress | undefined;
  }
}

// Each project loads this file on its own; the run's one cluster lives on the main process.
const SHARED = Symbol.for('desk-bot/test/postgres-cluster');
type Shared = { projects: number; cluster: Promise<PgCluster> };
const run = globalThis as { [SHARED]?: Shared };

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (noPostgresReason) {
    project.provide('postgres', undefined);
    return undefined;
  }
  const shared = (run[SHARED] ??= { projects: 0, cluster: startPostgres() });
  shared.projects += 1;
  const cluster = await shared.cluster;
  project.provide('postgres', { port: cluster.port, password: cluster.password });
  return async () => {
    shared.projects -= 1;
    if (shared.projects > 0) return;
    delete run[SHARED];
    await cluster.stop();
  };
}
