// `full` is what `npm run bench` measures; `smoke` runs every path on tiny sizes (`--smoke`, and
// test/bench/smoke.int.test.ts) so a broken group is noticed (its figures mean nothing).
export type Scale = 'full' | 'smoke';

export function sized(scale: Scale, full: number, smoke: number): number {
  return scale === 'full' ? full : smoke;
}
