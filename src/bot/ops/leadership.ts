// Which replica runs the background work; the composition says which this one is, readiness and the
// `desk_leader` gauge report it.
export type Role = 'leader' | 'follower';

/** Asked at every scrape and readiness check: the answer may change while the process runs. */
export type Leadership = () => Role;
