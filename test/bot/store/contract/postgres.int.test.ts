/** The ports' contract on the PostgreSQL store: the run's shared cluster, a new database per test. */
import { describePostgres, usePostgres } from '../../../support/postgres.js';
import { auditContract } from './audit.js';
import { postgresKind } from './kinds.js';
import { kvContract } from './kv.js';
import { repositoryContract } from './repository.js';

describePostgres('PostgreSQL store', () => {
  const pg = usePostgres();
  const kind = postgresKind(() => pg.cluster);
  repositoryContract(kind);
  kvContract(kind);
  auditContract(kind);
});
