/** One step of the schema: applied once, in order, in the transaction of migrate.ts. Never edited once released. */
export interface Migration {
  version: number;
  name: string;
  /** Statements without parameters (sent as one simple query). */
  sql: string;
}
