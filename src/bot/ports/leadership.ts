export type Role = 'leader' | 'follower';

/**
 * Whether this process is, among the replicas sharing one store, the one that does the background
 * work: the engine's ticks (expiries, looks, executions of approved requests, status
 * polling), the deposit watch, outbox delivery to Slack and the retention pruning. At most one
 * replica is leader at a time; leadership can be lost at any moment (a database session ends) and
 * gained (the leader died). The work a replica does for the interaction it is answering (a form,
 * a click) is not background work and runs on every replica.
 *
 * Implementations: LeadershipState below, set by the file store (always leader: one process holds
 * the files' locks) or by a database's advisory lock polled every few seconds.
 */
export interface Leadership {
  isLeader(): boolean;
  role(): Role;
  /** Calls `listener` with the new role after each change; returns the function that unsubscribes it. */
  onChange(listener: (role: Role) => void): () => void;
}

/**
 * A role held in memory and set by whoever decides it: the file store's (always leader, see
 * store/leadership.ts), tests (flipped by hand), a database implementation (from its lock).
 */
export class LeadershipState implements Leadership {
  #role: Role;
  readonly #listeners = new Set<(role: Role) => void>();

  constructor(role: Role) {
    this.#role = role;
  }

  isLeader(): boolean {
    return this.#role === 'leader';
  }

  role(): Role {
    return this.#role;
  }

  onChange(listener: (role: Role) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Changes the role and tells the listeners; setting the role it already has does nothing. */
  set(role: Role): void {
    if (role === this.#role) return;
    this.#role = role;
    for (const listener of [...this.#listeners]) listener(role);
  }
}
