/**
 * Which replica runs the desk's background work (polling, the deposit watch, outbox delivery). The
 * composition says which this process is; readiness reports it and the `desk_leader` gauge shows it.
 */
export type Role = 'leader' | 'follower';

/** Asked at every scrape and readiness check: the answer may change while the process runs. */
export type Leadership = () => Role;
