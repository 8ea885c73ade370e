/** Where the person is looking: a channel or DM, or App Home. */
export type Place = { kind: 'channel'; id: string } | { kind: 'home' };
