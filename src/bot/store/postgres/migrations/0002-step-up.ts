// Step-up approvals (issue 24): each approver's enrollment (its secret sealed with
// STEP_UP_ENCRYPTION_KEY), last accepted time step, wrong codes and lockout, one row per user, so a
// code used or a lockout earned on one replica holds on every other (the row is locked per change).
import type { Migration } from './migration.js';

export const stepUp: Migration = {
  version: 2,
  name: 'step-up',
  sql: `
CREATE TABLE step_up (
  user_id    text PRIMARY KEY,
  state      jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
};
